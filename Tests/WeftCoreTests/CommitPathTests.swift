import Testing

@testable import WeftCore

/// The commit paths the small-N work split apart: one changed selector (no array), several
/// changed selectors, groups with only synchronous subscribers, and groups that also have
/// coalesced ones.
@Suite("Commit paths")
@MainActor
struct CommitPathTests {
  @Test func oneCommitChangingTwoSelectorsAndTheStreamDeliversEachOnce() {
    let cell = StateCell(Profile(), name: "CommitPaths.two")
    let names = Recorder<Change<String>>()
    let visits = Recorder<Change<Int>>()
    let every = Recorder<UInt64>()
    let tokens = [
      cell.observeSynchronously(\.name) { names.append($0) },
      cell.observeSynchronously(\.visits) { visits.append($0) },
      cell.observeSynchronously(StateSelector(\Profile.email).deliveringEveryCommit()) { change in
        every.append(change.version)
      },
    ]
    cell.update {
      $0.name = "Ada"
      $0.visits = 3
    }
    cell.update { $0.visits = 4 }
    #expect(names.values == [Change(value: "Ada", version: 1)])
    #expect(visits.values == [Change(value: 3, version: 1), Change(value: 4, version: 2)])
    #expect(every.values == [1, 2])  // equal values delivered: the policy opts out
    for token in tokens { token.cancel() }
  }

  @Test func aGroupWithSynchronousAndMainActorSubscribersServesBoth() {
    let cell = StateCell(Profile(), name: "CommitPaths.mixed")
    let synchronous = Recorder<Int>()
    var main: [Int] = []
    let first = cell.observeSynchronously(\.visits) { synchronous.append($0.value) }
    cell.update { $0.visits = 1 }  // only synchronous subscribers so far
    #expect(synchronous.values == [1])
    #expect(cell.deliverPendingMainActorChangesReportingWork() == false)
    let second = cell.observeOnMainActor(\.visits) { main.append($0.value) }
    cell.update { $0.visits = 2 }
    #expect(synchronous.values == [1, 2])
    #expect(main.isEmpty)  // coalesced: not inside the commit
    cell.deliverPendingMainActorChanges()
    #expect(main == [2])
    second.cancel()
    cell.update { $0.visits = 3 }
    cell.deliverPendingMainActorChanges()
    #expect(synchronous.values == [1, 2, 3])
    #expect(main == [2])
    first.cancel()
  }

  @Test func aCancelledSynchronousSubscriberIsNotCalledByLaterCommits() {
    let cell = StateCell(Profile(), name: "CommitPaths.cancel")
    let calls = Counter()
    let token = cell.observeSynchronously(\.visits) { _ in calls.increment() }
    cell.update { $0.visits = 1 }
    token.cancel()
    cell.update { $0.visits = 2 }
    #expect(calls.value == 1)
    #expect(cell.selectorCount == 0)
  }
}

extension StateCell {
  /// Whether a MainActor job had anything pending (drains it).
  @MainActor
  fileprivate func deliverPendingMainActorChangesReportingWork() -> Bool {
    let before = storage.withLock { !$0.main.isEmpty }
    deliverPendingMainActorChanges()
    return before
  }
}
