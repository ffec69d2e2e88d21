import Testing
import WeftFeedback

#if canImport(XCTest)
import XCTest
#endif

/// Where WeftTesting reports a failure: to Swift Testing when a Swift Testing test is
/// running (at the given source location), else to XCTest where it is linked — `XCTFail` at
/// the test's own file and line, which XCTest takes only as the compile-time `StaticString`
/// that `TestFailure.Location` keeps from the caller's `#filePath` — so an app's test target
/// needs no adapter whichever framework it uses.
///
/// - Note: Isolation: any; both frameworks accept issues from any task of the test.
/// - Complexity: O(1) plus the framework's recording.
enum IssueReporting {
  static func report(_ message: String, at location: TestFailure.Location) {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: location.fileID, filePath: location.filePath, line: location.line,
          column: location.column))
      return
    }
    #if canImport(XCTest)
    if let file = location.staticFilePath {
      XCTFail(message, file: file, line: UInt(location.line))
    } else {
      XCTFail("\(location): \(message)")
    }
    #else
    print("\(location): error: \(message)")
    #endif
  }
}
