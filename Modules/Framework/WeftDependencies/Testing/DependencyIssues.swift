import Foundation

/// Where an unimplemented dependency reports that it was called: the seam between this
/// module, which never links a test framework, and WeftTesting, whose test scopes
/// (`TestStore`, the `.dependencies` trait) put a reporter in the
/// dependencies that records a Swift Testing issue (`Issue.record`, or XCTest's `XCTFail`),
/// or calls a `TestStore`'s `failure` function. Outside such a scope the report goes to
/// standard error.
///
/// The reporter is itself a dependency (`DependencyValues.issueReporter`, package access),
/// so it follows the scope: an endpoint called from a store's effect reports to that store.
///
/// - Complexity: O(1) per report plus the reporter.
/// - Note: Isolation: any.
package enum DependencyIssues {
  /// Where a report points: the line that declared the unimplemented endpoint.
  package struct Location: Sendable {
    package let fileID: StaticString
    package let filePath: StaticString
    package let line: UInt
    package let column: UInt
  }

  /// Receives a report: the message and where the endpoint was declared.
  package typealias Reporter = @Sendable (_ message: String, _ location: Location) -> Void

  /// Reports `message` to the reporter in scope.
  package static func report(_ message: String, at location: Location) {
    DependencyValues.current.issueReporter(message, location)
  }

  /// Writes the report to standard error: the reporter outside a test scope.
  package static let standardError: Reporter = { message, location in
    let line = "\(location.fileID):\(location.line):\(location.column): error: \(message)\n"
    FileHandle.standardError.write(Data(line.utf8))
  }

  /// The message of an endpoint called without an override.
  package static func unimplementedMessage(_ endpoint: String) -> String {
    "Unimplemented: '\(endpoint)' was called, and this test did not override it. "
      + "Give it a test value for this test (the .dependencies trait, withDependencies), "
      + "this TestStore (TestStore(…, dependencies: { $0… = … })) or this feedback system."
  }
}

extension DependencyValues {
  /// Where unimplemented endpoints report (WeftTesting sets it in its test scopes).
  package var issueReporter: DependencyIssues.Reporter {
    get { self[IssueReporterKey.self] }
    set { self[IssueReporterKey.self] = newValue }
  }
}

private enum IssueReporterKey: DependencyKey {
  static let liveValue: DependencyIssues.Reporter = DependencyIssues.standardError
  static let testValue: DependencyIssues.Reporter = DependencyIssues.standardError
}
