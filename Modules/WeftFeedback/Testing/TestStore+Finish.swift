extension TestStore {
  /// Ends the test: waits for running effects to finish, then reports every event fed back
  /// and not received and every effect still running, and cancels what is left.
  ///
  /// ```swift
  /// await store.finish()
  /// ```
  ///
  /// Call it last. Without it the store checks the same when it is released, without
  /// waiting.
  ///
  /// - Parameter timeout: the real-time bound for effects to finish (only a failing test
  ///   reaches it); the store's `timeout` by default.
  public func finish(
    timeout: Duration? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
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
    let record = tracker.record
    if !record.pending.isEmpty {
      fail(Messages.unreceived(record.pending.map(\.event)), location)
    }
    let running =
      record.running.values
      .filter { !skipped.contains($0.activity.effect) }
      .sorted { $0.activity.effect < $1.activity.effect }
    if !running.isEmpty {
      fail(Messages.stillRunning(running.map(\.summary)), location)
    }
  }
}
