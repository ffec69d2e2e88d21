import WeftCore
import WeftDependencies

/// A unidirectional feedback loop: a state, a pure reducer, and feedbacks that turn states
/// and events into effects whose events flow back in.
///
/// ```
///            ┌──────────────── events from effects ◀──────────────┐
///            ▼                                                    │
/// send ─▶ queue ─▶ reduce(&state, event) ─▶ commit ─▶ feedback rules ─▶ effects
///                                             │
///                                             ▼
///                          StateCell fan-out, eventsWithState
/// ```
///
/// ```swift
/// @MainActor func makeCounter() -> FeedbackSystem<Int, CounterEvent> {
///   FeedbackSystem(
///     initial: 0, reduce: { count, event in count += event == .increment ? 1 : -1 },
///     feedbacks: [.just(effects: ticks.map { _ in .increment })], on: MainActor.shared)
/// }
/// let counter = makeCounter()
/// counter.send(.increment)   // reduced before `send` returns: we are on its host
/// counter.state              // 1
/// ```
///
/// Events are reduced one at a time, in the order they reach the system, on its *host*:
/// the MainActor for screen stores, or an actor of its own (`FeedbackActor`, the default)
/// for services. After each event the new state is committed to `cell` (so it is
/// observable through WeftCore's fan-out: current value, key-path subscriptions,
/// `changes`), yielded with the event by `eventsWithState`, and shown to every feedback in
/// order, whose rules start and cancel effects.
///
/// > Important: Tearing the system down (`cancel()`, or releasing it) cancels every running
/// > effect and drops queued events. Effect tasks hold the system weakly, so a running
/// > effect never keeps it alive.
///
/// # Performance
/// Reducing an event costs one lock to dequeue it, your reducer, one `StateCell` commit
/// (see its cost), one lock-free check per `eventsWithState` stream, and each feedback's
/// rule. A launched effect costs one task and two short locks. What is slow: a reducer that
/// copies a large state (the state is a value), and `lensing` restarting an expensive effect
/// on every event.
///
/// - Complexity: per event O(1) plus the reducer, one commit and the feedback rules (see
///   `# Performance`).
/// - Note: Isolation: `Sendable`. `send` is callable from anywhere; the reducer, feedback
///   rules and effect starts run on the host; reads of `state` never wait.
/// - Note: Allocations: per event, none of the system's own besides its queue growing; one
///   task per launched effect.
public final class FeedbackSystem<State: Sendable, Event: Sendable>: Sendable {
  /// An event and the state reducing it produced.
  public typealias Transition = (event: Event, state: State)

  /// The cell the system commits each reduced state to: read it, observe it, stream it.
  public let cell: StateCell<State>
  /// The actor the system reduces and starts effects on.
  public let host: any Actor
  let shared: LoopShared<Event>
  let engine: HostConfined<Engine<State, Event>>
  let transitions = Broadcast<Transition>()
  let observer: (@Sendable (EffectActivity) -> Void)?
  let feedbackNames: [String]
  /// The dependencies the feedbacks' rules and effects read: the scope the system was made
  /// in, with `init`'s `dependencies` overrides.
  public let dependencies: DependencyValues

  /// Makes and starts a system.
  ///
  /// If the caller runs on `host` (a MainActor store made on the MainActor), the initial
  /// state is shown to the feedbacks before `init` returns; otherwise a job on the host
  /// starts them, before any event.
  ///
  /// - Parameters:
  ///   - initial: the first state (version 0 of `cell`).
  ///   - name: how `cell` is named in metrics and messages.
  ///   - reduce: a pure, synchronous function applying an event to the state.
  ///   - feedbacks: the effects' rules, shown each state in this order.
  ///   - host: where events are reduced: `MainActor.shared` for screens; by default a fresh
  ///     `FeedbackActor`.
  ///   - monitor: where `cell` counts commits and deliveries.
  ///   - observer: told of each effect's `EffectActivity` (launch, start, cancel, finish),
  ///     on the host, except cancellations by `cancel()`, reported where it was called.
  ///   - dependencies: overrides for this system only, over the scope it is made in
  ///     (`DependencyValues.current`). Its rules and effects run in that scope whoever sends
  ///     the events: `@Dependency` inside an effect reads it.
  /// - Complexity: O(f), f = feedbacks, plus their rules on the initial state.
  /// - Note: Isolation: any; `isolation` is the caller's, filled in for you.
  /// - Note: Allocations: the cell, the engine, a reactor per feedback; one host job when
  ///   made off the host.
  public convenience init(
    initial: State, name: String? = nil,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>], on host: any Actor = FeedbackActor(),
    monitor: PerformanceMonitor = .shared,
    observingEffects observer: (@Sendable (EffectActivity) -> Void)? = nil,
    dependencies update: (inout DependencyValues) -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation
  ) {
    var dependencies = DependencyValues.current
    update(&dependencies)
    self.init(
      initial: initial, name: name, reduce: reduce, feedbacks: feedbacks, host: host,
      monitor: monitor, observer: observer, onTransition: nil, dependencies: dependencies,
      isolation: isolation)
  }

  /// The designated initializer, with the hook `TestStore` uses: `onTransition` is called
  /// after each reduction, before the feedback rules run; `dependencies` is the whole scope
  /// the rules and effects run in.
  package init(
    initial: State, name: String?, reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>], host: any Actor, monitor: PerformanceMonitor,
    observer: (@Sendable (EffectActivity) -> Void)?,
    onTransition: (@Sendable (Event, State) -> Void)?,
    dependencies: DependencyValues,
    isolation: isolated (any Actor)?
  ) {
    self.dependencies = dependencies
    self.cell = StateCell(
      initial, name: name ?? "FeedbackSystem<\(State.self)>", monitor: monitor)
    self.host = host
    self.observer = observer
    let feedbackNames = feedbacks.indices.map { feedbacks[$0].displayName(at: $0) }
    self.feedbackNames = feedbackNames
    self.shared = LoopShared(feedbackNames: feedbackNames)
    self.engine = HostConfined(
      Engine(state: initial, reduce: reduce, feedbacks: feedbacks, onTransition: onTransition),
      host: host)
    if isolation === host {
      shared.withLock { $0.draining = true }
      resume(drain(isolation: isolation))
    } else {
      shared.withLock { $0.drainScheduled = true }
      scheduleDrain()
    }
  }

  deinit { tearDown() }

  // MARK: Reading

  /// The latest reduced state, read without waiting for the host.
  ///
  /// - Complexity: O(1): one uncontended lock and a copy of the state.
  /// - Note: Isolation: any.
  /// - Note: Allocations: none beyond the copy.
  public var state: State { cell.state }

  /// Whether the system was torn down.
  ///
  /// - Complexity: O(1): one lock.
  /// - Note: Isolation: any.
  /// - Note: Allocations: none.
  public var isCancelled: Bool { shared.withLock { $0.cancelled } }

  /// Effects launched and not yet finished (cancelled ones count until their task ends).
  ///
  /// - Complexity: O(1): one lock.
  /// - Note: Isolation: any.
  /// - Note: Allocations: none.
  public var activeEffectCount: Int { shared.withLock { $0.effects.count } }

  // MARK: Tearing down

  /// Tears the system down: cancels every running effect, drops queued events, ends the
  /// `eventsWithState` streams. Later events are ignored; the state stays readable.
  /// Idempotent; releasing the system does the same.
  ///
  /// - Complexity: O(e), e = running effects.
  /// - Note: Isolation: any; effect tasks end on the host afterwards (`waitUntilIdle()`).
  /// - Note: Allocations: an array of the running effects' tasks.
  public func cancel() { tearDown() }
}
