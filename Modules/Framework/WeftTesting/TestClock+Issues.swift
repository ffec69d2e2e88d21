import WeftCore
import WeftFeedback

extension TestClock {
  /// Waits until at least `count` tasks sleep on this clock, for at most `timeout` of real
  /// time; if they never do, records a test issue at the caller's line saying what it waited
  /// for and what sleeps instead, and returns — a test never hangs on one wait too many.
  ///
  /// ```swift
  /// await clock.expectSleepers(count: 1)   // the request's latency timer is set
  /// await clock.advance(by: .milliseconds(40))
  /// ```
  ///
  /// - Returns: whether the sleepers came.
  /// - Complexity: as `sleepers(atLeast:within:)`.
  /// - Note: Isolation: any task of the test.
  @discardableResult
  public func expectSleepers(
    count: Int = 1, timeout: Duration = .seconds(10), fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async -> Bool {
    if await sleepers(atLeast: count, within: timeout) { return true }
    IssueReporting.report(
      "waited \(timeout) of real time for \(count) task(s) to sleep on the TestClock; "
        + "\(sleeperSummary)",
      at: TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column))
    return false
  }
}
