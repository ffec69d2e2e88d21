import Testing
import WeftCore
import WeftFeedback
import WeftTesting

/// A timer and a request cancelled by id: no field of the state exists only to cancel.
private struct Ticker: Equatable, Sendable {
  var isRunning = false
  var seconds = 0
  var fact: String?

  enum Event: Equatable, Sendable {
    case toggle
    case ticked
    case factTapped(Int)
    case factLoaded(String)
    case cancelTapped
  }

  enum EffectID: Hashable, Sendable { case timer, fact }

  static func reduce(_ state: inout Ticker, _ event: Event) {
    switch event {
    case .toggle: state.isRunning.toggle()
    case .ticked: state.seconds += 1
    case .factTapped: state.fact = nil
    case .factLoaded(let fact): state.fact = fact
    case .cancelTapped: break
    }
  }

  static func feedbacks(
    clock: TestClock, fact: @escaping @Sendable (Int) async -> String
  ) -> [Feedback<Ticker, Event>] {
    [
      .cancellable { event, state -> EffectRequest<EffectID, Event>? in
        guard case .toggle = event else { return nil }
        guard state.isRunning else { return .cancel(id: EffectID.timer) }
        return .run(id: EffectID.timer, cancelInFlight: true) {
          clock.timer(interval: .seconds(1)).map { _ in Event.ticked }
        }
      }.named("timer"),
      .cancellable { event, _ in
        switch event {
        case .factTapped(let number):
          .run(id: EffectID.fact, cancelInFlight: true) { .factLoaded(await fact(number)) }
        case .cancelTapped: .cancel(id: EffectID.fact)
        default: nil
        }
      }.named("fact"),
    ]
  }
}

@Suite("cancellable feedbacks and a TestStore given its clock", .timeLimit(.minutes(1)))
@MainActor
struct CancellableFeedbackTests {
  @Test func aTimerTicksOncePerSecondOfEveryAdvanceWithNoWaitForSleepers() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Ticker(), reduce: Ticker.reduce,
      feedbacks: Ticker.feedbacks(clock: clock, fact: { "\($0)" }), clock: clock,
      failure: recordIssue)
    store.send(.toggle, effects: .started("timer")) { $0.isRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.ticked) { $0.seconds = 1 }
    await clock.advance(by: .seconds(5))
    for second in 2...6 {
      await store.receive(.ticked) { $0.seconds = second }
    }
    store.send(.toggle, effects: .cancelled("timer")) { $0.isRunning = false }
    await store.finish()
  }

  @Test func cancelByIDStopsTheRequestInFlight() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Ticker(), reduce: Ticker.reduce,
      feedbacks: Ticker.feedbacks(
        clock: clock,
        fact: { number in
          try? await clock.sleep(for: .seconds(1))
          return "\(number) is a number"
        }), clock: clock, failure: recordIssue)
    store.send(.factTapped(1), effects: .started("fact"))
    #expect(store.runningEffects.map(\.detail) == ["fact"])
    store.send(.cancelTapped, effects: .cancelled("fact"))
    await clock.advance(by: .seconds(1))
    await store.finish()
    #expect(store.state.fact == nil)
  }

  @Test func runWithCancelInFlightRestartsEvenForAnEqualInput() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Ticker(), reduce: Ticker.reduce,
      feedbacks: Ticker.feedbacks(
        clock: clock,
        fact: { number in
          try? await clock.sleep(for: .seconds(1))
          return "\(number) at \(clock.now)"
        }), clock: clock, failure: recordIssue)
    store.send(.factTapped(7), effects: .started("fact"))
    await clock.advance(by: .milliseconds(500))
    store.send(.factTapped(7), effects: .started("fact").cancelling("fact"))
    await clock.advance(by: .seconds(1))
    await store.receive(.factLoaded("7 at t+1.5 seconds")) { $0.fact = "7 at t+1.5 seconds" }
    await store.finish()
  }

  @Test func aReceiveAfterAnAdvanceThatCameTooEarlySaysSo() async {
    let clock = TestClock()
    let gate = AsyncStream.makeStream(of: Void.self)
    let log = FailureLog()
    let store = TestStore(
      initial: Ticker(), reduce: Ticker.reduce,
      feedbacks: [
        // Started with the system, not by a send: the clock cannot know it will sleep.
        .just {
          gate.stream.map { _ in
            try? await clock.sleep(for: .seconds(1))
            return Ticker.Event.ticked
          }
        }.named("late")
      ],
      timeout: .milliseconds(50), clock: clock, failure: log.sink)
    await clock.advance(by: .seconds(1))  // before the effect slept: it wakes nothing
    gate.continuation.yield()
    await clock.waitForSleepers(count: 1)
    await store.receive(.ticked) { $0.seconds = 1 }
    #expect(
      log.messages == [
        """
        receive(.ticked) found no event within 0.05 seconds, while 1 effect kept running:
          • late #1, started by the initial state
        The last advance came before the effect slept, so it woke nothing: the TestClock is \
        at t+1.0 seconds; 1 task sleeping: until t+2.0 seconds (began at t+1.0 seconds, \
        after the last advance).
        To fix: advance again, past the deadline above.
        """
      ])
    gate.continuation.finish()
    await clock.advance(by: .seconds(1))
    await store.receive(.ticked) { $0.seconds = 1 }
    await store.finish()
  }
}
