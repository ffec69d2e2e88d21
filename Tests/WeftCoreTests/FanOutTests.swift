import Synchronization
import Testing

@testable import WeftCore

@Suite("Selective fan-out")
struct FanOutTests {
  @Test func unchangedProjectionIsNotDelivered() {
    let cell = StateCell(Profile())
    let names = Recorder<String>()
    let token = cell.observeSynchronously(\.name) { names.append($0.value) }
    cell.update { $0.visits += 1 }
    cell.update { $0.email = "x@example.com" }
    #expect(names.values.isEmpty)
    cell.update { $0.name = "Ada" }
    cell.update { $0.name = "Ada" }  // same value again: suppressed
    #expect(names.values == ["Ada"])
    token.cancel()
  }

  @Test func subscribersWithTheSameSelectorShareOneComparison() {
    let cell = StateCell(Profile())
    let projections = Counter()
    let selector = StateSelector<Profile, Int>(id: "visits") { state in
      projections.increment()
      return state.visits
    }
    let seen = Counter()
    let tokens = (0..<100).map { _ in cell.observeSynchronously(selector) { _ in seen.increment() }
    }
    #expect(cell.selectorCount == 1)
    let before = projections.value
    cell.update { $0.visits = 7 }
    #expect(projections.value - before == 1)
    #expect(seen.value == 100)
    for token in tokens { token.cancel() }
    #expect(cell.selectorCount == 0)
  }

  /// Lists from `prefetchMinimumCount` up are walked with prefetching (a second loop): it
  /// must reach every active subscriber once, skip the cancelled ones, and stop at the end.
  @Test(arguments: [prefetchMinimumCount - 1, prefetchMinimumCount, prefetchMinimumCount + 100])
  func longListsReachEveryActiveSubscriberOnce(count: Int) {
    let cell = StateCell(Profile())
    let calls = Mutex([Int](repeating: 0, count: count))
    let tokens = (0..<count).map { index in
      cell.observeSynchronously(\.visits) { _ in calls.withLock { $0[index] += 1 } }
    }
    // Cancelled ones are swap-removed from the list, so cancel some near both ends.
    let cancelled = Set([0, 1, count / 2, count - 2, count - 1])
    for index in cancelled { tokens[index].cancel() }
    cell.update { $0.visits = 1 }
    let seen = calls.withLock { $0 }
    for index in 0..<count {
      #expect(seen[index] == (cancelled.contains(index) ? 0 : 1), "subscriber \(index)")
    }
    for token in tokens { token.cancel() }
  }

  @Test func deliveringEveryCommitOptsOutOfSuppression() {
    let cell = StateCell(Profile())
    let calls = Counter()
    let token = cell.observeSynchronously(StateSelector(\.name).deliveringEveryCommit()) { _ in
      calls.increment()
    }
    cell.update { $0.visits += 1 }
    cell.update { $0.visits += 1 }
    #expect(calls.value == 2)
    token.cancel()
  }

  @Test func cancelledSubscriberIsNeverCalledAgain() {
    let cell = StateCell(Profile())
    let calls = Counter()
    let token = cell.observeSynchronously(\.visits) { _ in calls.increment() }
    cell.update { $0.visits = 1 }
    token.cancel()
    #expect(token.isCancelled)
    cell.update { $0.visits = 2 }
    #expect(calls.value == 1)
    #expect(cell.subscriberCount == 0)
    token.cancel()  // idempotent
  }

  @Test func releasedTokenCancelsAndFreesItsOwner() {
    final class ViewModel: Sendable {
      let seen = Recorder<Int>()
      let subscription = Mutex<StateSubscription?>(nil)
    }
    let cell = StateCell(Profile())
    weak var weakModel: ViewModel?
    let calls = Counter()
    do {
      let model = ViewModel()
      weakModel = model
      let token = cell.observeSynchronously(\.visits) { [weak model] change in
        calls.increment()
        model?.seen.append(change.value)
      }
      model.subscription.withLock { $0 = token }
      cell.update { $0.visits = 1 }
      #expect(model.seen.values == [1])
    }
    #expect(weakModel == nil)
    #expect(cell.subscriberCount == 0)
    cell.update { $0.visits = 2 }
    #expect(calls.value == 1)
  }

  @Test func subscriberCancelledDuringADeliveryIsSkipped() {
    let cell = StateCell(Profile())
    let order = Recorder<String>()
    let victim = Mutex<StateSubscription?>(nil)
    // The first subscriber cancels the second while the same commit is being delivered.
    let first = cell.observeSynchronously(\.visits) { _ in
      order.append("first")
      victim.withLock { $0?.cancel() }
    }
    let second = cell.observeSynchronously(\.visits) { _ in order.append("second") }
    victim.withLock { $0 = second }
    cell.update { $0.visits = 1 }
    #expect(order.values == ["first"])
    first.cancel()
  }

  @Test func syncSubscribersSeeVersionsInOrderUnderConcurrentUpdaters() async {
    let client = ProfileClient()
    let versions = Recorder<UInt64>()
    let token = client.observeSynchronously(\.visits) { versions.append($0.version) }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<20 {
        group.addTask { for _ in 0..<50 { await client.update { $0.visits += 1 } } }
      }
    }
    #expect(client.state.visits == 1_000)
    let seen = versions.values
    #expect(seen == Array(1...1_000))
    token.cancel()
  }

  @Test func everyTargetAndSelectorLeavesNothingBehind() async {
    actor Target {}
    let cell = StateCell(Profile())
    let target = Target()
    var tokens: [StateSubscription] = []
    tokens.append(cell.observeSynchronously(\.name) { _ in })
    tokens.append(cell.observeOnMainActor(\.name) { _ in })
    tokens.append(cell.observe(StateSelector(\.visits), on: target) { _, _ in })
    tokens.append(cell.observeSynchronously(StateSelector(id: 1) { $0.tags.count }) { _ in })
    #expect(cell.selectorCount == 3)
    #expect(cell.subscriberCount == 4)
    tokens.removeAll()
    #expect(cell.selectorCount == 0)
    #expect(cell.subscriberCount == 0)
  }
}
