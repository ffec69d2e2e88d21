import WeftCore
import WeftDependencies

/// A `Service` run by a feedback system on an actor of its own: actions become events,
/// effects run off the MainActor, state is observable through the fan-out engine.
///
/// ```swift
/// let auth = FeedbackService(
///   initial: AuthState.idle, reduce: AuthState.reduce, actions: AuthEvent.action,
///   feedbacks: AuthState.feedbacks(api: api, clock: ContinuousClock(), logouts: logouts))
/// auth.dispatch(.login(username: "ada", password: "secret"))
/// ```
///
/// Releasing the service (or `cancel()`) tears its system down and cancels every effect.
///
/// - Complexity: what its system costs per action (see `FeedbackSystem`).
/// - Note: Isolation: `Sendable`; dispatch from anywhere; reduced on `system.host`.
/// - Note: Allocations: one system and one actor; per action, what `FeedbackSystem.send`
///   costs from off its host (one host job per burst).
public final class FeedbackService<State: Sendable, Action: Sendable, Event: Sendable>: Service {
  /// The loop behind the service.
  public let system: FeedbackSystem<State, Event>
  private let embed: @Sendable (Action) -> Event

  /// Makes and starts a service.
  ///
  /// - Parameters:
  ///   - initial: the first state.
  ///   - name: how its cell is named in metrics and messages.
  ///   - reduce: the pure reducer.
  ///   - actions: how an action becomes an event (usually an enum case, `Event.action`).
  ///   - feedbacks: its effects' rules.
  ///   - host: the actor it runs on; a fresh `FeedbackActor` by default.
  ///   - dependencies: overrides for this service's effects, over the scope it is made in.
  /// - Complexity: O(f), f = feedbacks.
  /// - Note: Isolation: any; the feedbacks start on `host`, before any action.
  /// - Note: Allocations: the system, its cell and, by default, its actor.
  public init(
    initial: State, name: String? = nil,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    actions embed: @escaping @Sendable (Action) -> Event,
    feedbacks: [Feedback<State, Event>], on host: any Actor = FeedbackActor(),
    monitor: PerformanceMonitor = .shared,
    dependencies update: (inout DependencyValues) -> Void = { _ in }
  ) {
    self.system = FeedbackSystem(
      initial: initial, name: name, reduce: reduce, feedbacks: feedbacks, on: host,
      monitor: monitor, dependencies: update)
    self.embed = embed
  }

  deinit { system.cancel() }

  /// The cell holding the state: read it, subscribe by key path, stream `changes`.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: any.
  /// - Note: Allocations: none.
  public nonisolated var cell: StateCell<State> { system.cell }

  /// Sends the action's event into the loop; returns at once.
  ///
  /// - Complexity: O(1) to enqueue.
  /// - Note: Isolation: any; actions dispatched from one isolation are reduced in order.
  /// - Note: Allocations: one host job per burst of actions.
  public func dispatch(_ action: Action) { system.send(embed(action), isolation: nil) }

  /// Sends the action's event and returns once it has been reduced.
  ///
  /// - Complexity: one hop to the host, plus reducing the queue.
  /// - Note: Isolation: any.
  /// - Note: Allocations: none of its own.
  public func dispatchAndWait(_ action: Action) async { await system.sendAndWait(embed(action)) }

  /// Tears the service down: cancels every effect; later actions are ignored.
  ///
  /// - Complexity: O(e), e = running effects.
  /// - Note: Isolation: any.
  /// - Note: Allocations: none.
  public func cancel() { system.cancel() }
}
