import WeftCore
import WeftDependencies

extension FeedbackSystem {
  /// Sends an event into the loop.
  ///
  /// Called on the host outside a reduction (a MainActor store's `dispatch`), the event is
  /// reduced, and its feedbacks have run, before `send` returns. Called during a reduction
  /// (from a synchronous observer or an imperative feedback), it is queued and reduced right
  /// after the current event. Called from elsewhere, it is queued and a host job reduces it.
  ///
  /// ```swift
  /// store.system.send(.usernameChanged("ada"))
  /// ```
  ///
  /// Events sent from one isolation are reduced in the order they were sent. After
  /// `cancel()`, events are ignored.
  ///
  /// - Complexity: O(1) to enqueue, plus reducing it when on the host.
  /// - Note: Isolation: any; `isolation` is the caller's, filled in for you.
  /// - Note: Allocations: none to enqueue (amortized); one host job when sent from off the
  ///   host and none is pending.
  public func send(_ event: Event, isolation: isolated (any Actor)? = #isolation) {
    resume(enqueue(event, isolation: isolation))
  }

  /// `send`, returning the idle waiters to resume instead of resuming them.
  private func enqueue(
    _ event: Event, isolation: isolated (any Actor)?
  ) -> [CheckedContinuation<Void, Never>] {
    let onHost = isolation === host
    let action = shared.withLock { shared -> SendAction in
      guard !shared.cancelled else { return .none }
      shared.queue.append(event)
      if shared.draining { return .none }  // the running drain reduces it next
      if onHost {
        shared.draining = true
        return .drainNow
      }
      if shared.drainScheduled { return .none }
      shared.drainScheduled = true
      return .schedule
    }
    switch action {
    case .drainNow: return drain(isolation: isolation)
    case .schedule: scheduleDrain()
    case .none: break
    }
    return []
  }

  /// Sends `event` from any isolation and returns once it has been reduced, together with
  /// every event queued before it.
  ///
  /// - Complexity: one hop to the host, plus reducing the queue.
  /// - Note: Isolation: any.
  /// - Note: Allocations: none of its own.
  public func sendAndWait(_ event: Event) async {
    await Self.send(event, to: WeakReference(self), shared, isolation: host)
  }

  private static func send(
    _ event: Event, to system: WeakReference<FeedbackSystem>, _ shared: LoopShared<Event>,
    isolation: isolated (any Actor)?
  ) {
    shared.hostJob(system) { $0.enqueue(event, isolation: isolation) }
  }

  enum SendAction {
    case none
    case drainNow
    case schedule
  }

  /// Asks for a host job that drains the queue (`drainScheduled` is already set).
  func scheduleDrain() {
    let system = WeakReference(self)
    let shared = shared
    let host = host
    Task { await Self.scheduledDrain(system, shared, isolation: host) }
  }

  private static func scheduledDrain(
    _ system: WeakReference<FeedbackSystem>, _ shared: LoopShared<Event>,
    isolation: isolated (any Actor)?
  ) {
    // A host job: waiters resumed afterwards may find the system released, as a test that
    // drops it right after `waitUntilIdle` expects.
    shared.hostJob(system) { $0.drainScheduled(isolation: isolation) }
  }

  private func drainScheduled(
    isolation: isolated (any Actor)?
  ) -> [CheckedContinuation<Void, Never>] {
    let drains = shared.withLock { shared -> Bool in
      shared.drainScheduled = false
      if shared.draining { return false }
      shared.draining = true
      return true
    }
    return drains ? drain(isolation: isolation) : shared.withLock { $0.takeSatisfiedWaiters() }
  }

  /// Reduces queued events until the queue is empty, starting the system first if needed.
  /// The caller holds the drain (set `draining`); this releases it.
  ///
  /// - Returns: the idle waiters to resume; the caller resumes them once it no longer needs
  ///   the system.
  ///
  /// Runs in the system's dependency scope (the effects it launches inherit it); entering it
  /// costs a task-local binding only when the caller's scope is another one.
  func drain(isolation: isolated (any Actor)?) -> [CheckedContinuation<Void, Never>] {
    if DependencyValues.current.isSameScope(as: dependencies) {
      return drainInScope(isolation: isolation)
    }
    return withDependencies(dependencies) { drainInScope(isolation: isolation) }
  }

  private func drainInScope(
    isolation: isolated (any Actor)?
  ) -> [CheckedContinuation<Void, Never>] {
    engine.withValue(isolation: isolation) { engine in
      if !engine.started {
        engine.started = true
        start(engine, isolation: isolation)
      }
      while true {
        switch nextEvent() {
        case .event(let event): process(event, engine, isolation: isolation)
        case .done(let ready): return ready
        }
      }
    }
  }

  private enum Next {
    case event(Event)
    case done([CheckedContinuation<Void, Never>])
  }

  /// The next queued event; when there is none, releases the drain and takes the idle
  /// waiters whose condition now holds.
  private func nextEvent() -> Next {
    shared.withLock { shared -> Next in
      if !shared.cancelled, let event = shared.queue.popFirst() { return .event(event) }
      shared.draining = false
      return .done(shared.takeSatisfiedWaiters())
    }
  }

  private func start(_ engine: Engine<State, Event>, isolation: isolated (any Actor)?) {
    let dispatch = EventDispatch<Event> { [weak self] event, isolation in
      self?.send(event, isolation: isolation)
    }
    engine.reactors = engine.feedbacks.map { $0.makeReactor(dispatch) }
    var commands = EffectCommands<Event>(describes: observer != nil)
    let state = engine.state
    for (index, reactor) in engine.reactors.enumerated() {
      reactor.start(state, &commands)
      if !commands.isEmpty {
        execute(commands, feedback: index, isolation: isolation)
        commands.removeAll()
      }
    }
  }

  /// Reduces one event, publishes the new state, and runs the feedback rules on it.
  private func process(
    _ event: Event, _ engine: Engine<State, Event>, isolation: isolated (any Actor)?
  ) {
    engine.reduce(&engine.state, event)
    let state = engine.state
    cell.commit(state)
    engine.onTransition?(event, state)
    if transitions.hasConsumers { transitions.yield((event, state)) }
    var commands = EffectCommands<Event>(describes: observer != nil)
    for (index, reactor) in engine.reactors.enumerated() {
      reactor.react(to: event, in: state, &commands)
      if !commands.isEmpty {
        execute(commands, feedback: index, isolation: isolation)
        commands.removeAll()
      }
    }
  }
}
