import WeftFeedback

extension TestStore {
  /// Ends the test: waits for running effects to finish, then reports every event fed back
  /// and not received and every effect still running, and cancels what is left.
  ///
  /// ```swift
  /// await store.finish()
  /// ```
  ///
  /// Call it last, in the test that made the store. Its failures are reported through
  /// `failure` at the line of this call, on the calling task, so a Swift Testing `failure`
  /// (`Issue.record`) attributes them to the current test. Without it, the store checks the
  /// same when it is released, without waiting, and reports at the line that made the store
  /// (see ``TestStore``).
  ///
  /// - Parameter timeout: the real-time bound for effects to finish (only a failing test
  ///   reaches it); the store's `timeout` by default.
  /// - Complexity: waits on a signal (the last effect finishing), never polls; rendering only
  ///   on failure.
  /// - Note: Isolation: MainActor; reports on the caller's task.
  /// - Note: Allocations: a waiter and a real-time timer task while it waits.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    let location = TestFailure.Location(
      fileID: fileID, filePath: filePath, line: line, column: column)
    let system = self.system
    let skipped = self.skipped
    if exhaustivity == .on {
      _ = await waitFor(timeout: timeout ?? self.timeout) { record in
        record.running.keys.allSatisfy { skipped.contains($0) } && !system.hasQueuedEvents
      }
      reportLeftovers(at: location)
    }
    isFinished = true
    system.cancel()
    await system.waitUntilIdle()
  }

  /// Reports unreceived events and running effects (not the skipped ones).
  func reportLeftovers(at location: TestFailure.Location) {
    for message in Self.leftovers(tracker.record, skipping: skipped) {
      fail(message, location)
    }
  }

  /// The messages for unreceived events and running effects (not the skipped ones), from any
  /// isolation (the deinit is nonisolated).
  nonisolated static func leftovers(
    _ record: TestStoreTracker<State, Event>.Record, skipping skipped: Set<EffectID>
  ) -> [String] {
    var messages: [String] = []
    if !record.pending.isEmpty {
      messages.append(Messages.unreceived(record.pending.map(\.event)))
    }
    let running =
      record.running.values
      .filter { !skipped.contains($0.activity.effect) }
      .sorted { $0.activity.effect < $1.activity.effect }
    if !running.isEmpty {
      messages.append(Messages.stillRunning(running.map(\.summary)))
    }
    return messages
  }
}
