import Testing
import WeftCore
import WeftFeedback
import WeftTesting

/// Leftovers (events fed back and never received, effects still running) fail the test that
/// leaked them, through Swift Testing's own issue handling: `withKnownIssue` only sees issues
/// recorded in its own test, on its own task, so each test here fails if the report lands
/// anywhere else (in no test, in another test, later, or never).
@Suite("TestStore leftovers", .timeLimit(.minutes(5)))
@MainActor
struct TestStoreLeftoverTests {
  @Test func anEventLeakedByAStoreThatGoesAwayFailsThisTestAtTheStoresCreation() async {
    let clock = TestClock()
    let line = #line + 2
    await withKnownIssue {
      let store = TestStore(
        initial: Search(), reduce: Search.reduce, feedbacks: Search.feedbacks(clock: clock))
      store.send(.queryChanged("a")) {
        $0.query = "a"
        $0.isLoading = true
      }
      await clock.waitForSleepers(count: 1)
      await clock.advance(by: .seconds(1))
      await store.system.waitUntilIdle()
      // The store goes away here without `finish()`, with `.loaded` never received.
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.sourceLocation?.fileID.hasSuffix("TestStoreLeftoverTests.swift") == true
        && issue.comments.first?.rawValue.hasPrefix(
          "1 event fed back by effects was never received:\n  • .loaded([\"a1\", \"a2\"])")
          == true
    }
  }

  @Test func anEffectLeftRunningByAStoreThatGoesAwayFailsThisTestAtTheStoresCreation() async {
    let clock = TestClock()
    let line = #line + 2
    await withKnownIssue {
      let store = TestStore(
        initial: Search(), reduce: Search.reduce, feedbacks: Search.feedbacks(clock: clock))
      store.send(.queryChanged("a")) {
        $0.query = "a"
        $0.isLoading = true
      }
      await clock.waitForSleepers(count: 1)
      // The store goes away here without `finish()`, with the search still sleeping.
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.first?.rawValue.hasPrefix(
          "1 effect is still running at the end of the test:\n"
            + "  • search #1 for a, started by send(.queryChanged(\"a\"))") == true
    }
  }

  @Test func aStoreReleasedInASynchronousScopeReportsThere() {
    let clock = TestClock()
    let line = #line + 2
    withKnownIssue {
      let store = TestStore(
        initial: Search(), reduce: Search.reduce, feedbacks: Search.feedbacks(clock: clock))
      store.send(.queryChanged("a")) {
        $0.query = "a"
        $0.isLoading = true
      }
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.first?.rawValue.hasPrefix("1 effect is still running") == true
    }
  }

  @Test func finishReportsLeftoversInThisTestAtItsLine() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Search(), reduce: Search.reduce, feedbacks: Search.feedbacks(clock: clock))
    store.timeout = .milliseconds(20)
    store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isLoading = true
    }
    await clock.waitForSleepers(count: 1)
    let line = #line + 2
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.first?.rawValue.hasPrefix("1 effect is still running") == true
    }
    #expect(store.system.isCancelled)
  }

  @Test func aFinishedStoreThatGoesAwayReportsNothingMore() async {
    let clock = TestClock()
    let log = FailureLog()
    do {
      let store = TestStore.search(clock: clock, log: log, timeout: .milliseconds(20))
      store.send(.queryChanged("a")) {
        $0.query = "a"
        $0.isLoading = true
      }
      await clock.waitForSleepers(count: 1)
      await store.finish()
    }
    #expect(log.messages.count == 1)
    #expect(log.messages.first?.hasPrefix("1 effect is still running") == true)
  }

  @Test func aNonExhaustiveStoreThatGoesAwayReportsNothing() async {
    let clock = TestClock()
    let log = FailureLog()
    do {
      let store = TestStore.search(clock: clock, log: log, exhaustivity: .off)
      store.send(.queryChanged("a")) { $0.isLoading = true }
      await clock.waitForSleepers(count: 1)
      await clock.advance(by: .seconds(1))
      await store.system.waitUntilIdle()
    }
    #expect(log.messages.isEmpty)
  }
}
