import WeftCore
import WeftFeedback

/// A reminder countdown as a WeftFeedback loop: `start(seconds:)` sets the seconds left; while
/// any are left, one effect sleeps a second (plain `Task.sleep`) and feeds back `tick`; at
/// zero the reminder fires. Nothing in it knows about the simulator: under `notes-sim` the
/// deterministic runtime runs each sleep on virtual time, so `clock advance 5m` moves a
/// 15-minute countdown by exactly 300 ticks, and on a device it counts real seconds.
///
/// ```swift
/// let reminder = Reminder()
/// reminder.start(seconds: 900)
/// reminder.system.state.remaining   // 900, then 899 a second later, …, nil once fired
/// ```
///
/// - Note: Isolation: a `Sendable` owner; its loop runs on a `FeedbackActor`.
/// - Complexity: one commit per second while counting; O(1) per call.
public final class Reminder: Sendable {
  /// The countdown's state.
  ///
  /// - Note: Isolation: a `Sendable` value.
  /// - Complexity: O(1) to copy.
  public struct State: Sendable, Equatable {
    /// Seconds left, or `nil` when no countdown runs.
    public var remaining: Int?
    /// How many countdowns reached zero.
    public var fired = 0
  }

  /// What changes the countdown.
  ///
  /// - Note: Isolation: a `Sendable` value.
  /// - Complexity: O(1).
  public enum Event: Sendable, Equatable {
    /// Starts (or restarts) a countdown of `seconds`.
    case start(seconds: Int)
    /// Stops the countdown without firing.
    case cancel
    /// A second passed.
    case tick
  }

  /// The feedback loop: its `cell` is what views observe.
  public let system: FeedbackSystem<State, Event>

  /// Makes an idle reminder.
  ///
  /// - Complexity: O(1).
  public init() {
    system = FeedbackSystem(
      initial: State(), name: "Reminder", reduce: Self.reduce, feedbacks: [Self.countdown])
  }

  /// Starts (or restarts) a countdown of `seconds`.
  ///
  /// - Complexity: O(1); the loop reduces the event on its actor.
  public func start(seconds: Int) { system.send(.start(seconds: seconds)) }

  /// Stops the countdown without firing.
  ///
  /// - Complexity: O(1).
  public func cancel() { system.send(.cancel) }

  /// Stops the loop and its timer (the app's shutdown).
  ///
  /// - Complexity: O(1).
  public func shutDown() { system.cancel() }

  /// Applies one event.
  ///
  /// - Complexity: O(1).
  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .start(let seconds):
      state.remaining = seconds > 0 ? seconds : nil
      if seconds <= 0 { state.fired += 1 }
    case .cancel:
      state.remaining = nil
    case .tick:
      guard let remaining = state.remaining else { return }
      state.remaining = remaining > 1 ? remaining - 1 : nil
      if remaining <= 1 { state.fired += 1 }
    }
  }

  /// One timer per value of `remaining`: a new value (a tick, a restart) cancels the sleep
  /// of the old one; `nil` stops it.
  static let countdown = Feedback<State, Event>.lensingSkippingRepeated(
    state: { $0.remaining }, effects: tickAfterASecond)

  /// Sleeps one second, then ticks; `nil` when cancelled (the countdown moved on or stopped).
  @Sendable static func tickAfterASecond(_ remaining: Int) async -> Event? {
    do {
      try await Task.sleep(for: .seconds(1))
    } catch {
      return nil
    }
    return .tick
  }
}
