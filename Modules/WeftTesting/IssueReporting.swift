import Testing

#if canImport(XCTest)
import XCTest
#endif

/// Where WeftTesting reports a failure: to Swift Testing when a Swift Testing test is
/// running (at the given source location), else to XCTest where it is linked (`XCTFail`,
/// which takes its file only as a compile-time `StaticString`, so the location leads the
/// message there) — an app's test target needs no adapter whichever framework it uses.
///
/// - Note: Isolation: any; both frameworks accept issues from any task of the test.
/// - Complexity: O(1) plus the framework's recording.
enum IssueReporting {
  static func report(
    _ message: String, fileID: String, filePath: String, line: Int, column: Int
  ) {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: fileID, filePath: filePath, line: line, column: column))
      return
    }
    #if canImport(XCTest)
    XCTFail("\(fileID):\(line):\(column): \(message)")
    #else
    print("\(fileID):\(line):\(column): error: \(message)")
    #endif
  }
}
