import WeftCore

extension FeedbackSystem {
  /// Carries out one feedback's commands, in order.
  func execute(
    _ commands: EffectCommands<Event>, feedback index: Int, isolation: isolated (any Actor)?
  ) {
    for command in commands.list {
      switch command {
      case .cancel(let serial):
        cancelEffect(EffectID(feedback: index, serial: serial))
      case .launch(let serial, let detail, let effect):
        launch(effect, EffectID(feedback: index, serial: serial), detail, isolation: isolation)
      }
    }
  }

  /// Starts a task for `effect` on the host. The task cannot begin before this returns (it
  /// needs the host, which we hold), so registering it afterwards is race-free.
  private func launch(
    _ effect: Effect<Event>, _ id: EffectID, _ detail: String?, isolation: isolated (any Actor)?
  ) {
    let launcher = WakeTrace.isNeeded ? WakeTrace.current : nil
    let accepted = shared.withLock { shared -> Bool in
      guard !shared.cancelled else { return false }
      shared.effects[id] = SharedLoopState.RunningEffect(task: nil, detail: detail)
      return true
    }
    guard accepted else { return }
    shared.joinWakeGroup(id, launchedBy: launcher)
    report(.scheduled, id, detail)
    let operation = TakeOnce(effect)
    let system = WeakReference(self)
    let shared = shared
    let task = Task {
      _ = isolation  // runs isolated to the host
      await Self.run(operation, id, system, shared, isolation: isolation)
    }
    let cancelledMeanwhile = shared.withLock { shared -> Bool in
      guard shared.effects[id]?.live == true else { return true }
      shared.effects[id]?.task = task
      return false
    }
    if cancelledMeanwhile { task.cancel() }
  }

  /// The body of an effect task, on the host. Holds the system only weakly, and only
  /// between suspensions. Traced once a `TestClock` exists, so that a clock that wakes the
  /// effect waits for it to sleep again or end.
  private static func run(
    _ operation: TakeOnce<Effect<Event>>, _ id: EffectID, _ system: WeakReference<FeedbackSystem>,
    _ shared: LoopShared<Event>, isolation: isolated (any Actor)?
  ) async {
    guard WakeTrace.isNeeded else {
      return await body(operation, id, system, shared, isolation: isolation)
    }
    await WakeTrace.$current.withValue(
      WakeTrace(host: shared, key: id.wakeKey),
      operation: { await body(operation, id, system, shared, isolation: isolation) },
      isolation: isolation)
    shared.ended(id)  // after `finish`: the effects its last event launched joined first
  }

  private static func body(
    _ operation: TakeOnce<Effect<Event>>, _ id: EffectID, _ system: WeakReference<FeedbackSystem>,
    _ shared: LoopShared<Event>, isolation: isolated (any Actor)?
  ) async {
    let begins = system.object?.begin(id) ?? false
    var last: Event?
    if begins, let effect = operation.take() {
      last = await effect.run(isolation) { event in
        system.object?.deliver(event, from: id, isolation: isolation) ?? false
      }
    }
    _ = operation.take()  // an effect that never began releases its operation here
    // A host job: idle waiters are resumed once the strong reference `finish` needs is gone.
    shared.hostJob(system) { $0.finish(id, delivering: last, isolation: isolation) }
  }

  /// Whether the effect may begin: still wanted, and its task not cancelled.
  private func begin(_ id: EffectID) -> Bool {
    let detail = shared.withLock { shared -> String?? in
      guard let entry = shared.effects[id], entry.live, !Task.isCancelled else { return nil }
      return .some(entry.detail)
    }
    guard let detail else { return false }
    report(.started, id, detail)
    return true
  }

  /// Feeds an effect's event into the loop unless the effect was cancelled; returns whether
  /// the effect is still wanted afterwards.
  private func deliver(_ event: Event, from id: EffectID, isolation: isolated (any Actor)?) -> Bool
  {
    let action = shared.withLock { shared -> SendAction? in
      guard !shared.cancelled, shared.effects[id]?.live == true else { return nil }
      shared.queue.append(event)
      if shared.draining { return SendAction.none }
      shared.draining = true
      return .drainNow
    }
    guard let action else { return false }
    if case .drainNow = action { resume(drain(isolation: isolation)) }
    return !Task.isCancelled && shared.withLock { $0.effects[id]?.live == true }
  }

  /// Records that an effect's task ended and tells its feedback; then reduces the effect's
  /// last event, unless the effect had been cancelled; then wakes idle waiters and reports
  /// `finished`.
  private func finish(
    _ id: EffectID, delivering last: Event?, isolation: isolated (any Actor)?
  ) -> [CheckedContinuation<Void, Never>] {
    let (removed, drains) = shared.withLock { shared -> (SharedLoopState.RunningEffect?, Bool) in
      let removed = shared.effects.removeValue(forKey: id)
      guard let last, removed?.live == true, !shared.cancelled else { return (removed, false) }
      shared.queue.append(last)
      if shared.draining { return (removed, false) }
      shared.draining = true
      return (removed, true)
    }
    engine.withValue(isolation: isolation) { engine in
      if engine.reactors.indices.contains(id.feedback) {
        engine.reactors[id.feedback].ended(id.serial)
      }
    }
    let ready = drains ? drain(isolation: isolation) : shared.withLock { $0.takeSatisfiedWaiters() }
    // Reported last: once an observer hears `finished`, the effect's last event has been
    // reduced and any effect it launched has been scheduled, so counts never dip early.
    report(.finished, id, removed?.detail ?? nil)
    return ready
  }

  /// Cancels one effect because its feedback's rule said so.
  private func cancelEffect(_ id: EffectID) {
    let found = shared.withLock { shared -> (Task<Void, Never>?, String?)? in
      guard let entry = shared.effects[id], entry.live else { return nil }
      shared.effects[id]?.live = false
      return (entry.task, entry.detail)
    }
    guard let (task, detail) = found else { return }
    report(.cancelled, id, detail)
    task?.cancel()
  }

  /// Cancels everything, once.
  func tearDown() {
    let taken = shared.withLock {
      shared -> ([(EffectID, Task<Void, Never>?, String?)], [CheckedContinuation<Void, Never>])? in
      guard !shared.cancelled else { return nil }
      shared.cancelled = true
      shared.queue.removeAll()
      var live: [(EffectID, Task<Void, Never>?, String?)] = []
      for (id, entry) in shared.effects where entry.live {
        shared.effects[id]?.live = false
        live.append((id, entry.task, entry.detail))
      }
      return (live.sorted { $0.0 < $1.0 }, shared.takeSatisfiedWaiters())
    }
    guard let (live, ready) = taken else { return }
    for (id, task, detail) in live {
      report(.cancelled, id, detail)
      task?.cancel()
    }
    transitions.finish()
    resume(ready)
  }

  func report(_ kind: EffectActivity.Kind, _ id: EffectID, _ detail: String?) {
    guard let observer else { return }
    observer(
      EffectActivity(kind: kind, effect: id, feedback: feedbackNames[id.feedback], detail: detail))
  }
}
