extension TestClock {
  /// Moves virtual time forward by `duration`, through every deadline in the window in turn:
  /// at each one it resumes the sleepers due (ties in the order they began sleeping) and
  /// waits for the work it woke to sleep again, end, or wait on something else, before it
  /// looks for the next deadline. A timer that re-arms therefore fires once per period in the
  /// window; `advance()` (by zero) resumes the sleeps already due.
  ///
  /// ```swift
  /// store.send(.toggleTimerButtonTapped, effects: .started("timer")) { $0.isTimerActive = true }
  /// await clock.advance(by: .seconds(5))
  /// await store.receive(.timerTicked) { $0.secondsElapsed = 1 }   // … five times
  /// ```
  ///
  /// Work the clock cannot see (a plain task it woke) is resumed and not waited for (see
  /// ``TestClock``). Woken work that neither sleeps nor ends within `timeout` of real time —
  /// it awaits something only the test can give — is reported (`WeftDiagnostics`, or a test
  /// issue through WeftTesting), and `advance` stops there.
  ///
  /// - Complexity: O(k + s) per deadline in the window, k = sleepers due, s = sleepers, plus
  ///   the woken work.
  /// - Note: Isolation: any; it suspends while the woken work runs.
  /// - Note: Allocations: a group per deadline that wakes traced work.
  public func advance(
    by duration: Duration = .zero, timeout: Duration = .seconds(10), fileID: String = #fileID,
    line: Int = #line
  ) async {
    let target = state.withLock { $0.now.advanced(by: duration) }
    await advance(to: target, timeout: timeout, fileID: fileID, line: line)
  }

  /// Moves virtual time forward to `deadline` (never backwards), as `advance(by:)` does.
  ///
  /// - Complexity: as `advance(by:)`.
  public func advance(
    to deadline: Instant, timeout: Duration = .seconds(10), fileID: String = #fileID,
    line: Int = #line
  ) async {
    if let stuck = await advanceReporting(to: deadline, timeout: timeout) {
      WeftDiagnostics.report("\(fileID):\(line): \(stuck)")
    }
  }

  /// Advances to the latest deadline among the current sleepers, as `advance(to:)` does
  /// (sleeps the woken work registers up to that deadline run too).
  ///
  /// - Complexity: as `advance(by:)`.
  public func run(
    timeout: Duration = .seconds(10), fileID: String = #fileID, line: Int = #line
  )
    async
  {
    guard let last = state.withLock({ $0.sleepers.last?.deadline }) else { return }
    await advance(to: last, timeout: timeout, fileID: fileID, line: line)
  }

  /// `advance(to:)` without the report: nil once the clock reached `deadline`, or the message
  /// saying which woken work did not settle (what a test framework's reporting builds on).
  ///
  /// - Complexity: as `advance(by:)`.
  public func advanceReporting(to deadline: Instant, timeout: Duration) async -> String? {
    while true {
      for fresh in state.withLock({ $0.freshWork.compactMap(\.group) }) {
        guard await fresh.settled(within: timeout) else {
          return Self.unsettledMessage(
            fresh.awakeDescriptions, started: true, timeout: timeout, sleeping: sleeperSummary)
        }
      }
      let due = state.withLock { state -> [Sleeper] in
        guard let first = state.sleepers.first, first.deadline <= deadline else { return [] }
        if state.now < first.deadline { state.now = first.deadline }
        let count = state.dueCount(through: state.now)
        defer { state.sleepers.removeFirst(count) }
        return Array(state.sleepers.prefix(count))
      }
      if due.isEmpty { break }
      let woken = WakeGroup()
      for sleeper in due {
        if let trace = sleeper.trace { _ = trace.host.markAwake(trace.key, in: woken) }
        sleeper.continuation.resume()
      }
      guard await woken.settled(within: timeout) else {
        return Self.unsettledMessage(
          woken.awakeDescriptions, started: false, timeout: timeout, sleeping: sleeperSummary)
      }
    }
    state.withLock { state in
      if state.now < deadline { state.now = deadline }
      state.advances += 1
    }
    return nil
  }

  /// What an `advance` whose woken work never settled says.
  static func unsettledMessage(
    _ awake: [String], started: Bool, timeout: Duration, sleeping: String
  ) -> String {
    let what = started ? "effect(s) started by the test" : "work it woke"
    return "TestClock.advance waited \(timeout) of real time for the \(what) to sleep again "
      + "or end: \(awake.joined(separator: ", ")) still running (\(sleeping)). It awaits "
      + "something other than the clock; give it what it waits for first, or cancel it."
  }
}
