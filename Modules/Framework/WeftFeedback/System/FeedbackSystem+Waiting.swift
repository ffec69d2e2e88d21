import WeftCore

extension FeedbackSystem {
  /// A stream of every event reduced from now on, with the state it produced, in order.
  ///
  /// ```swift
  /// for await (event, state) in system.eventsWithState() {
  ///   if case .authStateChanged(.authenticated) = event { navigate(to: .home) }
  /// }
  /// ```
  ///
  /// Each call makes a new stream. It ends when the system is torn down.
  ///
  /// - Parameter buffering: what a slow consumer keeps; by default every transition.
  /// - Complexity: O(1) per reduced event per stream.
  /// - Note: Isolation: transitions are yielded on the host, in reduction order.
  /// - Note: Allocations: one stream; none per transition beyond its buffer.
  public func eventsWithState(
    buffering: ChangeBuffering = .unbounded
  ) -> AsyncStream<Transition> {
    transitions.stream(buffering: buffering)
  }

  /// Returns once no effect is running and no event is waiting to be reduced: the explicit
  /// "effects idle" signal tests wait on instead of sleeping or yielding.
  ///
  /// ```swift
  /// system.cancel()
  /// await system.waitUntilIdle()   // every effect task has ended
  /// ```
  ///
  /// > Important: An effect that waits on something that never happens (an un-advanced
  /// > `TestClock`) keeps the system busy; advance the clock or cancel first.
  ///
  /// - Complexity: O(1) to register; woken by the host when the condition holds.
  /// - Note: Isolation: any. Cancelling the waiting task returns at once.
  /// - Note: Allocations: one waiter record.
  public func waitUntilIdle() async {
    await wait(maxEffects: 0, needsEmptyQueue: true)
  }

  /// Returns once at most `count` effects are running (launched and not yet finished).
  ///
  /// Use it to know that a cancelled effect's task has ended while another keeps running.
  ///
  /// - Complexity: O(1) to register.
  /// - Note: Isolation: any. Cancelling the waiting task returns at once.
  /// - Note: Allocations: one waiter record.
  public func waitForEffects(atMost count: Int) async {
    await wait(maxEffects: count, needsEmptyQueue: false)
  }

  private func wait(maxEffects: Int, needsEmptyQueue: Bool) async {
    let id = shared.withLock { shared -> UInt64 in
      shared.nextWaiterID += 1
      return shared.nextWaiterID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let ready = shared.withLock { shared -> Bool in
          let waiter = SharedLoopState<Event>.Waiter(
            id: id, maxEffects: maxEffects, needsEmptyQueue: needsEmptyQueue,
            continuation: continuation)
          if shared.isSatisfied(waiter) || Task.isCancelled { return true }
          shared.waiters.append(waiter)
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      let removed = shared.withLock { shared -> CheckedContinuation<Void, Never>? in
        guard let index = shared.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return shared.waiters.remove(at: index).continuation
      }
      removed?.resume()
    }
  }

  /// Whether events wait in the queue for a host job (what `TestStore`'s waits check).
  ///
  /// - Complexity: O(1): one lock.
  /// - Note: Isolation: any.
  package var hasQueuedEvents: Bool {
    shared.withLock { !$0.queue.isEmpty || $0.drainScheduled }
  }

  /// Resumes idle waiters taken under the lock.
  func resume(_ waiters: [CheckedContinuation<Void, Never>]) {
    for waiter in waiters { waiter.resume() }
  }
}

extension FeedbackSystem {
  /// Runs `body` (a `TestStore`'s send) so that the effects it launches join `group` until
  /// they first sleep on a clock or end: a `TestClock` that includes the group settles them
  /// before it advances.
  ///
  /// - Complexity: O(1) plus `body`.
  /// - Note: Isolation: the host.
  package func withFreshWork<Result>(_ group: WakeGroup, _ body: () -> Result) -> Result {
    shared.withFreshWork(group, body)
  }
}
