extension TestClock {
  /// Waits until at least `count` tasks are sleeping on this clock, for at most `timeout` of
  /// real time.
  ///
  /// Use it instead of `Task.yield()` loops to know that the code under test has reached its
  /// sleep. Returns `true` at once if `count` sleepers are already there. A wait that cannot
  /// end — one `waitForSleepers`/`run` pair too many, a seeded drop that skipped a sleep —
  /// never hangs: after `timeout` it returns `false` and says what it waited for and what
  /// sleeps (`WeftDiagnostics`: standard error unless a handler is set; WeftTesting's
  /// `expectSleepers` records it as a test issue at the caller's line instead).
  ///
  /// - Complexity: O(w) per sleep registered while it waits, w = waiters.
  /// - Note: Allocations: one timeout task per call that has to wait.
  @discardableResult
  public func waitForSleepers(
    count: Int = 1, timeout: Duration = .seconds(10), fileID: String = #fileID,
    line: Int = #line
  ) async -> Bool {
    let satisfied = await sleepers(atLeast: count, within: timeout)
    if !satisfied {
      WeftDiagnostics.report(
        Self.timeoutMessage(
          count: count, timeout: timeout, sleeping: sleeperSummary, at: "\(fileID):\(line)"))
    }
    return satisfied
  }

  /// `waitForSleepers(count:timeout:)` without the report: whether `count` tasks slept on this
  /// clock within `timeout` of real time (what a test framework's own reporting builds on).
  ///
  /// - Complexity: as `waitForSleepers(count:timeout:)`.
  public func sleepers(atLeast count: Int, within timeout: Duration) async -> Bool {
    if state.withLock({ $0.sleepers.count >= count }) { return true }
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    let timer = Task.detached { [weak self] in
      do {
        try await Task.sleep(for: timeout)
      } catch {
        return  // the wait ended first
      }
      self?.giveUp(waiter: id)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let ready = state.withLock { state -> Bool? in
        if state.sleepers.count >= count { return true }
        if state.expiredWaiters.remove(id) != nil { return false }
        state.sleeperWaiters.append((id, count, continuation))
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// What a timed-out `waitForSleepers` says.
  static func timeoutMessage(
    count: Int, timeout: Duration, sleeping: String, at location: String
  ) -> String {
    "\(location): TestClock.waitForSleepers(count: \(count)) gave up after \(timeout) of real "
      + "time: \(sleeping). A task the test expected to sleep did not (one wait or run too "
      + "many, or a sleep the code skipped)."
  }

  /// Ends the wait `id` with `false` (its timeout passed).
  private func giveUp(waiter id: UInt64) {
    let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard let index = state.sleeperWaiters.firstIndex(where: { $0.id == id }) else {
        state.expiredWaiters.insert(id)
        return nil
      }
      return state.sleeperWaiters.remove(at: index).continuation
    }
    continuation?.resume(returning: false)
  }
}
