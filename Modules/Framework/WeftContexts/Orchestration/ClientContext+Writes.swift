import WeftCore

/// Asking the client: every write goes to the client as one update, in the order started.
extension ClientContext {
  /// Asks the client to apply `body` as one update (one commit), after every write this
  /// context started before; returns without waiting.
  ///
  /// ```swift
  /// context.send { $0.visits += 1 }
  /// ```
  ///
  /// - Complexity: O(1) here; the update costs what `Client.update` costs.
  /// - Note: Isolation: MainActor; `body` runs on the client's actor.
  /// - Note: Allocations: one task and one closure.
  public func send(_ body: @escaping @Sendable (inout C.State) -> Void) {
    enqueue { client in await client.update(body) }
  }

  /// Asks the client to apply `body` as one update, after every write this context started
  /// before, and waits for it. The mirror shows the result when this returns.
  ///
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws; a throwing `body` commits nothing.
  /// - Complexity: as `Client.update`.
  /// - Note: Isolation: MainActor; `body` runs on the client's actor.
  @discardableResult
  public func update<Result: Sendable, Failure: Error>(
    _ body: @escaping @Sendable (inout C.State) throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    let task = enqueue { client -> Swift.Result<Result, Failure> in
      do throws(Failure) {
        return .success(try await client.update(body))
      } catch {
        return .failure(error)
      }
    }
    return try await task.value.get()
  }

  /// Waits until every write this context started has reached the client, including the
  /// debounced writes whose window has passed on their clock; the mirror then shows their
  /// result. Debounce windows still open are not waited for.
  ///
  /// ```swift
  /// query.set("swift")
  /// await clock.advance(by: .milliseconds(300))   // the window passes
  /// await context.waitForWrites()                  // the debounced write has reached the client
  /// ```
  ///
  /// - Complexity: O(w²) worst case, w = unfinished writes and timers (each round looks
  ///   for the next one to wait for); w is small in practice.
  public func waitForWrites() async {
    while let entry = work?.due { await entry.wait() }
  }

  /// Runs `operation` on the client after the previous write, tracking it for `waitForWrites()`.
  /// `then` runs on the MainActor with the output, before the write counts as finished.
  @discardableResult
  func enqueue<Output: Sendable>(
    _ operation: @escaping @Sendable (C) async -> Output,
    then: ((Output) -> Void)? = nil
  ) -> Task<Output, Never> {
    let previous = writeTail
    let client = self.client
    let tracker = pendingWork
    let key = tracker.makeKey()
    // MainActor-isolated like this method, so it cannot start before `start` below ran.
    let task = Task { [weak self, weak tracker] () -> Output in
      await previous?()
      let output = await operation(client)
      self?.mirror.catchUp(to: client.cell.version)
      then?(output)
      tracker?.finish(key)
      return output
    }
    let wait: @Sendable () async -> Void = { _ = await task.value }
    writeTail = wait
    tracker.start(key, .init(wait: wait))
    return task
  }

  var pendingWork: PendingWork {
    if let work { return work }
    let pending = PendingWork()
    work = pending
    return pending
  }
}
