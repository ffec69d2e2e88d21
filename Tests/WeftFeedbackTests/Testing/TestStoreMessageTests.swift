import Testing
import WeftCore
import WeftFeedback
import WeftTesting

/// The test helper's failure messages are API: each is pinned here, word for word.
@Suite("TestStore failure messages", .timeLimit(.minutes(5)))
@MainActor
struct TestStoreMessageTests {
  @Test func aClosureThatDoesNotProduceTheActualState() async {
    let clock = TestClock()
    let log = FailureLog()
    let store = TestStore.search(clock: clock, log: log)
    store.send(.queryChanged("ada")) {
      $0.query = "ada"
    }
    #expect(
      log.messages == [
        """
        State after send(.queryChanged("ada")) does not match: (− expected, + actual)
            Search(
              query: "ada",
              results: [],
          −   isLoading: false
          +   isLoading: true
            )
        To fix: make the closure produce the actual state, or fix the reducer.
        """
      ])
    await store.finish(timeout: .milliseconds(10))
  }

  @Test func aChangeWithoutAClosure() async {
    let log = FailureLog()
    let store = TestStore.search(clock: TestClock(), log: log)
    store.send(.queryChanged(""))  // isLoading stays false, query stays "": no change
    store.send(.queryChanged("a"))
    #expect(
      log.messages == [
        """
        State after send(.queryChanged("a")) does not match: (− expected, + actual)
            Search(
          −   query: "",
          +   query: "a",
              results: [],
          −   isLoading: false
          +   isLoading: true
            )
        To fix: pass a closure that applies the expected change, e.g. \
        `send(.queryChanged("a")) { $0.field = value }`, or fix the reducer.
        """
      ])
    store.skipInFlightEffects()
    await store.finish()
  }

  @Test func aClosureWhenNothingChanged() async {
    let log = FailureLog()
    let store = TestStore.search(clock: TestClock(), log: log)
    store.send(.clear) { _ in }
    #expect(
      log.messages == [
        """
        send(.clear) changed nothing, and neither did its closure.
        To fix: drop the closure when no change is expected.
        """
      ])
    await store.finish()
  }

  @Test func sendingWhileFedBackEventsWaitUnreceived() async {
    let clock = TestClock()
    let log = FailureLog()
    let store = TestStore.search(clock: clock, log: log)
    store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isLoading = true
    }
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(1))
    await store.system.waitUntilIdle()
    store.send(.clear) { $0 = Search() }
    #expect(
      log.messages == [
        """
        send(.clear) was called while 1 event fed back by effects was not received:
          • .loaded(["a1", "a2"])
        To fix: receive it first with `await store.receive(...)`, or use `exhaustivity: .off`.
        """
      ])
    await store.finish()
  }

  @Test func receivingADifferentEvent() async {
    let clock = TestClock()
    let log = FailureLog()
    let store = TestStore.search(clock: clock, log: log)
    store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isLoading = true
    }
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(1))
    await store.receive(.loaded(["a1"]))
    #expect(
      log.messages == [
        """
        receive(.loaded(["a1"])) got a different event: (− expected, + received)
          − .loaded(["a1"])
          + .loaded(["a1", "a2"])
        To fix: expect the event effects actually sent, or fix the feedback that sent it.
        """
      ])
    await store.finish()
  }

  @Test func receivingWhenNoEffectCouldSendAnything() async {
    let log = FailureLog()
    let store = TestStore.search(clock: TestClock(), log: log)
    await store.receive(.loaded([]))
    #expect(
      log.messages == [
        """
        receive(.loaded([])) found no event: no effect is running that could send one.
        To fix: check that a feedback launches the effect, and that its clock was advanced.
        """
      ])
    await store.finish()
  }

  @Test func receivingWhileAnEffectNeverSendsAnything() async {
    let log = FailureLog()
    let store = TestStore.search(clock: TestClock(), log: log, timeout: .milliseconds(20))
    store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isLoading = true
    }
    await store.receive(.loaded(["a1", "a2"]))
    #expect(
      log.messages == [
        """
        receive(.loaded(["a1", "a2"])) found no event within 0.02 seconds, while 1 effect \
        kept running:
          • search #1 for a, started by send(.queryChanged("a"))
        To fix: advance the TestClock so the effect can send its event, or raise `timeout`; \
        give the store the clock (`TestStore(…, clock: clock)`) so that `advance` first lets \
        the effects `send` started reach their sleep.
        """
      ])
    store.skipInFlightEffects()
    await store.finish()
  }

  @Test func finishingWithUnreceivedEventsAndRunningEffects() async {
    let clock = TestClock()
    let log = FailureLog()
    let store = TestStore.search(clock: clock, log: log, timeout: .milliseconds(20))
    store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isLoading = true
    }
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(1))
    await store.system.waitUntilIdle()
    store.exhaustivity = .off
    store.send(.queryChanged("b"))  // skips `.loaded`, starts a new search
    store.exhaustivity = .on
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(1))
    await store.system.waitUntilIdle()
    store.send(.queryChanged("c")) { $0.query = "c" }
    await store.finish()
    #expect(
      log.messages == [
        """
        send(.queryChanged("c")) was called while 1 event fed back by effects was not received:
          • .loaded(["b1", "b2"])
        To fix: receive it first with `await store.receive(...)`, or use `exhaustivity: .off`.
        """,
        """
        State after send(.queryChanged("c")) does not match: (− expected, + actual)
            Search(
              query: "c",
              results: ["b1", "b2"],
          −   isLoading: false
          +   isLoading: true
            )
        To fix: make the closure produce the actual state, or fix the reducer.
        """,
        """
        1 effect is still running at the end of the test:
          • search #3 for c, started by send(.queryChanged("c"))
        To fix: advance the clock or send the event that ends it, or call \
        `store.skipInFlightEffects()` if the test does not care how they end.
        """,
      ])
  }

  @Test func finishingWithAnUnreceivedEvent() async {
    let clock = TestClock()
    let log = FailureLog()
    let store = TestStore.search(clock: clock, log: log)
    store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isLoading = true
    }
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(1))
    let line = #line + 1
    await store.finish()
    #expect(
      log.messages == [
        """
        1 event fed back by effects was never received:
          • .loaded(["a1", "a2"])
        To fix: add `await store.receive(...)` for each, or use `exhaustivity: .off`.
        """
      ])
    #expect(log.failures.first?.location.line == line)
    #expect(log.failures.first?.location.fileID.hasSuffix("TestStoreMessageTests.swift") == true)
  }

  @Test func effectsThatDifferFromTheExpectedOnes() async {
    let log = FailureLog()
    let store = TestStore.search(clock: TestClock(), log: log)
    store.send(.queryChanged("a"), effects: .nothing) {
      $0.query = "a"
      $0.isLoading = true
    }
    #expect(
      log.messages == [
        """
        Effects of send(.queryChanged("a")) differ: (− expected, + actual)
        − started [], cancelled []
        + started [search], cancelled []
        To fix: expect the effects the feedback rules launched and cancelled, or fix the rules.
        """
      ])
    store.send(.clear) { $0 = Search() }
    await store.finish()
  }

  @Test func sendingAfterTheStoreFinished() async {
    let log = FailureLog()
    let store = TestStore.search(clock: TestClock(), log: log)
    await store.finish()
    store.send(.clear)
    #expect(
      log.messages == [
        """
        send(.clear) was not reduced: the system was already torn down.
        To fix: send events before `finish()` and before cancelling the system.
        """
      ])
  }

  @Test func aPartialAssertionThatDoesNotHoldWhenNonExhaustive() async {
    let log = FailureLog()
    let store = TestStore.search(clock: TestClock(), log: log, exhaustivity: .off)
    store.send(.queryChanged("a")) { $0.isLoading = false }
    #expect(
      log.messages == [
        """
        State after send(.queryChanged("a")) does not match: (− expected, + actual)
            Search(
              query: "a",
              results: [],
          −   isLoading: false
          +   isLoading: true
            )
        To fix: make the closure produce the actual state, or fix the reducer.
        """
      ])
    await store.finish()
  }

  @Test func releasingAStoreWithoutFinishingReportsLeftoversAtItsCreation() async {
    let clock = TestClock()
    let log = FailureLog()
    let line = #line + 1
    var store: TestStore<Search, Search.Event>? = .search(clock: clock, log: log)
    store?.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isLoading = true
    }
    store = nil
    #expect(
      log.messages == [
        """
        1 effect is still running at the end of the test:
          • search #1 for a, started by send(.queryChanged("a"))
        To fix: advance the clock or send the event that ends it, or call \
        `store.skipInFlightEffects()` if the test does not care how they end.
        """
      ])
    #expect(log.failures.first?.location.line == line)
  }
}
