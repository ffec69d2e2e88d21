import CaseStudies
import Testing
import WeftCore
import WeftTesting

/// TCA's `TimersTests`, ported test for test.
@MainActor
struct TimersTests {
  @Test func basics() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Timers.State(), reduce: Timers.reduce, feedbacks: Timers.feedbacks,
      clock: clock)  // the store's clock is also the continuousClock dependency

    store.send(.toggleTimerButtonTapped, effects: .started("timer")) {
      $0.isTimerActive = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await clock.advance(by: .seconds(5))
    await store.receive(.timerTicked) { $0.secondsElapsed = 2 }
    await store.receive(.timerTicked) { $0.secondsElapsed = 3 }
    await store.receive(.timerTicked) { $0.secondsElapsed = 4 }
    await store.receive(.timerTicked) { $0.secondsElapsed = 5 }
    await store.receive(.timerTicked) { $0.secondsElapsed = 6 }
    store.send(.toggleTimerButtonTapped, effects: .cancelled("timer")) {
      $0.isTimerActive = false
    }
    await store.finish()
  }
}
