import WeftCore
import WeftDependencies
import WeftFeedback

/// TCA's Effects-Timers case study in Weft: a button starts and stops a timer that counts
/// seconds; leaving the screen stops it. The timer is an effect run by id: no field of the
/// state exists only to cancel it.
///
/// ```swift
/// let timers = FeedbackSystem(initial: Timers.State(), reduce: Timers.reduce,
///                             feedbacks: Timers.feedbacks)
/// timers.send(.toggleTimerButtonTapped)   // secondsElapsed: 1, 2, 3, … once a second
/// ```
///
/// - Note: Isolation: values and pure functions; the system runs them on its host.
/// - Complexity: O(1) per event.
public enum Timers {
  /// What the screen shows.
  public struct State: Equatable, Sendable {
    /// Whether the timer runs.
    public var isTimerActive = false
    /// Seconds counted so far.
    public var secondsElapsed = 0
    /// Makes a stopped timer at zero.
    public init() {}
  }

  /// What happens on the screen.
  public enum Event: Equatable, Sendable {
    case onDisappear
    case timerTicked
    case toggleTimerButtonTapped
  }

  enum EffectID { case timer }

  /// Applies one event.
  ///
  /// - Complexity: O(1).
  public static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .onDisappear: break
    case .timerTicked: state.secondsElapsed += 1
    case .toggleTimerButtonTapped: state.isTimerActive.toggle()
    }
  }

  /// The timer, ticking every second on the `continuousClock` dependency while it is active.
  ///
  /// - Complexity: O(1) per event; one sleep per tick.
  public static let feedbacks: [Feedback<State, Event>] = [
    .cancellable { event, state in
      @Dependency(\.continuousClock) var clock
      switch event {
      case .toggleTimerButtonTapped where state.isTimerActive: return tick(on: clock)
      case .onDisappear, .toggleTimerButtonTapped: return .cancel(id: EffectID.timer)
      case .timerTicked: return nil
      }
    }.named("timer")
  ]

  static func tick(on clock: some Clock<Duration>) -> EffectRequest<EffectID, Event> {
    .run(id: EffectID.timer, cancelInFlight: true) {
      clock.timer(interval: .seconds(1)).map { _ in .timerTicked }
    }
  }
}
