extension Feedback {
  /// Full control: `setup` is called once when the system starts, with a `Dispatch` that
  /// sends events into the loop, and returns the function called after every reduced event
  /// with the state it produced.
  ///
  /// ```swift
  /// .imperative { dispatch in
  ///   { state, event in
  ///     if case .action(.loginTapped) = event {
  ///       authService.dispatch(.login(username: state.username, password: state.password))
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// Events dispatched while the system is reducing are queued and reduced after the
  /// current one, in order. The system starts and cancels nothing for this kind: work you
  /// start is yours to stop, and dispatching into a torn-down system does nothing.
  ///
  /// - Complexity: O(1) per reduced event, plus your function.
  /// - Note: Isolation: both functions run on the system's host; `dispatch` may be called
  ///   from anywhere.
  /// - Note: Allocations: none per event.
  public static func imperative(
    _ setup: @escaping @Sendable (EventDispatch<Event>) -> (State, Event) -> Void
  ) -> Self {
    Feedback(kind: "imperative") { dispatch in ImperativeReactor(react: setup(dispatch)) }
  }
}

/// Sends events into a feedback system from anywhere; does nothing once the system is torn
/// down or gone.
///
/// ```swift
/// dispatch(.workCompleted(result))
/// ```
///
/// - Complexity: O(1) to enqueue; reduced at once when called on the system's host outside
///   a reduction, otherwise by the next job on the host.
/// - Note: Isolation: callable from any isolation; events sent from one isolation are
///   reduced in the order they were sent.
/// - Note: Allocations: none beyond the system's queue; a host job when called off-host and
///   none is pending.
public struct EventDispatch<Event: Sendable>: Sendable {
  let sink: @Sendable (Event, isolated (any Actor)?) -> Void

  /// Sends `event` into the system.
  ///
  /// - Complexity: O(1) to enqueue.
  /// - Note: Isolation: any; `isolation` is the caller's, filled in for you.
  /// - Note: Allocations: see the type.
  public func callAsFunction(_ event: Event, isolation: isolated (any Actor)? = #isolation) {
    sink(event, isolation)
  }
}

/// Calls an imperative feedback's function after each event.
final class ImperativeReactor<State: Sendable, Event: Sendable>: Reactor<State, Event> {
  private let react: (State, Event) -> Void

  init(react: @escaping (State, Event) -> Void) { self.react = react }

  override func react(to event: Event, in state: State, _ commands: inout EffectCommands<Event>) {
    react(state, event)
  }
}
