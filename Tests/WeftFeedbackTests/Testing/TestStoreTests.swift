import Testing
import WeftCore
import WeftFeedback
import WeftTesting

/// The exhaustive test helper, used the way feature tests use it.
@Suite("TestStore", .timeLimit(.minutes(5)))
@MainActor
struct TestStoreTests {
  @Test func aPassingExhaustiveTest() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Search(), reduce: Search.reduce, feedbacks: Search.feedbacks(clock: clock))
    #expect(store.effectsAtStart == .nothing)
    store.send(.queryChanged("ad"), effects: .started("search")) {
      $0.query = "ad"
      $0.isLoading = true
    }
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(1))
    await store.receive(.loaded(["ad1", "ad2"]), effects: .nothing) {
      $0.results = ["ad1", "ad2"]
      $0.isLoading = false
    }
    await store.finish()
  }

  @Test func aNewQueryRestartsTheLoadAndAClearCancelsIt() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Search(), reduce: Search.reduce, feedbacks: Search.feedbacks(clock: clock))
    store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isLoading = true
    }
    store.send(.queryChanged("ab"), effects: .started("search").cancelling("search")) {
      $0.query = "ab"
    }
    store.send(.clear, effects: .cancelled("search")) { $0 = Search() }
    await clock.advance(by: .seconds(5))
    await store.finish()
    #expect(store.effectLog.filter { $0.kind == .started }.count <= 2)
  }

  @Test func nonExhaustiveChecksOnlyWhatIsAsserted() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Search(), reduce: Search.reduce, feedbacks: Search.feedbacks(clock: clock),
      exhaustivity: .off)
    store.send(.queryChanged("a")) { $0.isLoading = true }  // query not asserted
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(1))
    store.send(.queryChanged("b"))  // the unreceived `.loaded` is skipped
    await clock.waitForSleepers(count: 1)
    // still running at the end: cancelled without failing
    await store.finish()
  }

  @Test func failuresAreRecordedAsIssuesAtTheCallersLine() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Search(), reduce: Search.reduce, feedbacks: Search.feedbacks(clock: clock))
    let line = #line + 2
    withKnownIssue {
      store.send(.queryChanged("a")) { $0.query = "a" }
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.first?.rawValue.hasPrefix("State after send(.queryChanged(\"a\"))")
          == true
    }
    store.send(.clear, effects: .cancelled("search")) { $0 = Search() }
    await store.finish()
  }
}
