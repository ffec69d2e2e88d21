import Testing
import WeftFeedback
import WeftTesting

/// Reports a `TestStore` failure as a Swift Testing issue at the test's line.
@Sendable func recordIssue(_ failure: TestFailure) {
  Issue.record(
    Comment(rawValue: failure.message),
    sourceLocation: SourceLocation(
      fileID: failure.location.fileID, filePath: failure.location.filePath,
      line: failure.location.line, column: failure.location.column))
}

extension TestStore {
  /// A store that reports failures as Swift Testing issues.
  convenience init(
    initial: State,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>],
    exhaustivity: Exhaustivity = .on,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    self.init(
      initial: initial, reduce: reduce, feedbacks: feedbacks, exhaustivity: exhaustivity,
      fileID: fileID, filePath: filePath, line: line, column: column, failure: recordIssue)
  }
}
