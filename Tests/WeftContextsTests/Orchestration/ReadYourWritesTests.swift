import Testing
import WeftCore

@testable import WeftContexts

/// Read-your-writes on the MainActor: after an awaited `update` returns, every context on
/// that client reads the committed state, even while other clients commit from other
/// threads and keep the client's MainActor delivery queue busy.
///
/// Not serialized: each test owns its delivery queue (shared by its client and the
/// hammered one, which is the contention under test), so the two tests run side by side
/// without sharing a queue.
@Suite("Read-your-writes")
@MainActor
struct ReadYourWritesTests {
  /// A client committing from a detached task, as fast as it can, until told to stop. It
  /// yields after each commit: an actor call that finds its actor free runs inline, so a
  /// loop that never yields would hold one of the (two, on CI) cooperative threads forever.
  private static func hammer(_ other: LedgerClient, until stop: StopFlag) -> Task<Int, Never> {
    Task.detached {
      var commits = 0
      while !stop.isSet {
        await other.update { $0.amount &+= 1 }
        commits += 1
        await Task.yield()
      }
      return commits
    }
  }

  @Test func anAwaitedClientUpdateIsReadByEveryContext() async {
    let root = makeRoot("ReadYourWrites")
    let monitor = PerformanceMonitor(enabled: false, deliveries: MainActorDeliveries())
    let client = ProfileClient(monitor: monitor)
    let first = ClientContext(client: client, named: "First", in: root)
    let second = ClientContext(client: client, named: "Second", in: root)
    first.dependsOn(\.visits)
    let other = LedgerClient(name: "Hammered", monitor: monitor)
    let otherContext = ClientContext(client: other, named: "Other", in: root)
    otherContext.dependsOn(\.amount)
    let stop = StopFlag()
    let hammering = Self.hammer(other, until: stop)

    var stale = 0
    for round in 1...20_000 {
      await client.update { $0.visits = round }
      if first.state.visits != round || second.state.visits != round { stale += 1 }
    }
    stop.set()
    let otherCommits = await hammering.value
    #expect(stale == 0, "\(stale) of 20,000 reads after an awaited update were stale")
    #expect(otherCommits > 0)
  }

  @Test func anAwaitedContextUpdateIsReadByEveryContext() async {
    let root = makeRoot("ReadYourWrites")
    let monitor = PerformanceMonitor(enabled: false, deliveries: MainActorDeliveries())
    let client = ProfileClient(monitor: monitor)
    let writer = ClientContext(client: client, named: "Writer", in: root)
    let reader = ClientContext(client: client, named: "Reader", in: root)
    let other = LedgerClient(name: "Hammered", monitor: monitor)
    let otherContext = ClientContext(client: other, named: "Other", in: root)
    otherContext.dependsOn(\.amount)
    let stop = StopFlag()
    let hammering = Self.hammer(other, until: stop)

    var stale = 0
    for round in 1...5_000 {
      await writer.update { $0.visits = round }
      if writer.state.visits != round || reader.state.visits != round { stale += 1 }
    }
    stop.set()
    _ = await hammering.value
    #expect(stale == 0, "\(stale) of 5,000 reads after an awaited context update were stale")
  }
}

/// A flag a test sets once to stop a background task.
private final class StopFlag: Sendable {
  private let flag = Locked(false)
  var isSet: Bool { flag.withLock { $0 } }
  func set() { flag.withLock { $0 = true } }
}
