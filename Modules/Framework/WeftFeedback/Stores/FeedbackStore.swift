import WeftCore
import WeftDependencies

/// A screen's feedback system on the MainActor: actions from the view become events, state
/// is observable through the fan-out engine, and typed routes are derived from events and
/// the state they produced.
///
/// ```swift
/// let store = FeedbackStore(
///   initial: LoginState(), reduce: LoginState.reduce, actions: LoginEvent.action,
///   feedbacks: LoginState.feedbacks(auth: auth),
///   routes: { event, _ in
///     guard case .authStateChanged(.authenticated) = event else { return nil }
///     return .navigateToHome
///   })
/// store.dispatch(.usernameChanged("ada"))   // reduced before it returns
/// store.state.username                      // "ada"
/// for await route in store.routes() { navigate(route) }
/// ```
///
/// # Performance
/// `dispatch` reduces synchronously: your reducer, one commit (MainActor subscribers get one
/// coalesced job), the feedback rules and the route function. What is slow: a route
/// function or reducer that does real work; keep both pure and small.
///
/// - Complexity: per action O(1) plus the reducer, one commit, the rules and the route
///   function (see `# Performance`).
/// - Note: Isolation: `@MainActor`. Effects start on the MainActor; the async functions
///   they await run wherever they are isolated.
/// - Note: Allocations: none per action of the store's own; one task per launched effect.
@MainActor
public final class FeedbackStore<
  State: Sendable, Action: Sendable, Event: Sendable, Route: Sendable
> {
  /// The loop behind the store (hosted on the MainActor).
  public let system: FeedbackSystem<State, Event>
  private let embed: @Sendable (Action) -> Event
  private let routeBroadcast: Broadcast<Route>

  /// Makes and starts a store; the initial state reaches the feedbacks before it returns.
  ///
  /// - Parameters:
  ///   - initial: the first state.
  ///   - name: how its cell is named in metrics and messages.
  ///   - reduce: the pure reducer.
  ///   - actions: how an action becomes an event.
  ///   - feedbacks: its effects' rules.
  ///   - routes: the route, if any, that an event leads to, given the state it produced.
  ///   - dependencies: overrides for this store's effects, over the scope it is made in.
  /// - Complexity: O(f), f = feedbacks.
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: the system, its cell and the route broadcast.
  public init(
    initial: State, name: String? = nil,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    actions embed: @escaping @Sendable (Action) -> Event,
    feedbacks: [Feedback<State, Event>],
    routes: @escaping @Sendable (Event, State) -> Route?,
    monitor: PerformanceMonitor = .shared,
    dependencies update: (inout DependencyValues) -> Void = { _ in }
  ) {
    var dependencies = DependencyValues.current
    update(&dependencies)
    let broadcast = Broadcast<Route>()
    self.routeBroadcast = broadcast
    self.embed = embed
    self.system = FeedbackSystem(
      initial: initial, name: name, reduce: reduce, feedbacks: feedbacks, host: MainActor.shared,
      monitor: monitor, observer: nil,
      onTransition: { event, state in
        if let route = routes(event, state) { broadcast.yield(route) }
      },
      dependencies: dependencies, isolation: MainActor.shared)
  }

  deinit {
    system.cancel()
    routeBroadcast.finish()  // a `for await route in store.routes()` loop ends with the store
  }

  /// The current state.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: none beyond the copy.
  public var state: State { system.state }

  /// The cell holding the state: subscribe by key path for views, or stream `changes`
  /// (`StateOwner`'s API).
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: any; the cell is `Sendable`.
  /// - Note: Allocations: none.
  public nonisolated var cell: StateCell<State> { system.cell }

  /// Reduces the action's event now, runs the feedback rules, and emits any route.
  ///
  /// - Complexity: O(1) plus the reducer, one commit, the rules and the route function.
  /// - Note: Isolation: MainActor; reduced before it returns (queued if called during a
  ///   reduction).
  /// - Note: Allocations: none of the store's own; a task per effect launched.
  public func dispatch(_ action: Action) { system.send(embed(action)) }

  /// A stream of the routes derived from now on, in order. Each call makes a new stream;
  /// streams end when the store is torn down.
  ///
  /// - Parameter buffering: what a slow consumer keeps; by default every route.
  /// - Complexity: O(1) per route per stream.
  /// - Note: Isolation: routes are yielded on the MainActor, in reduction order.
  /// - Note: Allocations: one stream; none per route beyond its buffer.
  public func routes(buffering: ChangeBuffering = .unbounded) -> AsyncStream<Route> {
    routeBroadcast.stream(buffering: buffering)
  }

  /// Tears the store down: cancels every effect and ends the route streams.
  ///
  /// - Complexity: O(e + r), e = running effects, r = route streams.
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: none.
  public func cancel() {
    system.cancel()
    routeBroadcast.finish()
  }
}
