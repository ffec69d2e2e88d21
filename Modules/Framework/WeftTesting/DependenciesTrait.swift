import Testing
import WeftDependencies
import WeftFeedback

/// A Swift Testing trait that runs a test (or each test of a suite) in the `.test`
/// dependency context, with fresh defaults and the overrides you give: keys nobody overrode
/// answer their `testValue`, and an unimplemented endpoint the test calls records an issue
/// naming it.
///
/// ```swift
/// @Test(.dependencies { $0.uuid = .constant(UUID(counting: 7)) })
/// func addsATodo() async { … }
///
/// @Suite(.dependencies()) struct TodoTests { … }   // every test: test values, fresh each
/// ```
///
/// - Complexity: O(o) per test, o = overrides.
/// - Note: Isolation: the overrides are applied on the test's task before it runs; tasks it
///   creates with `Task {}` and feedback systems it makes keep them.
public struct DependenciesTrait: TestTrait, SuiteTrait, TestScoping {
  let update: @Sendable (inout DependencyValues) -> Void

  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    var values = DependencyValues.current
    values.context = .test  // fresh defaults for each test
    values.issueReporter = DependencyValues.testIssueReporter
    update(&values)
    try await withDependencies(values) { try await function() }
  }
}

extension Trait where Self == DependenciesTrait {
  /// Runs the test in the `.test` dependency context with `update`'s overrides.
  ///
  /// - Complexity: O(o) per test, o = overrides.
  public static func dependencies(
    _ update: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) -> Self {
    DependenciesTrait(update: update)
  }
}

extension DependencyValues {
  /// This set in the `.test` context (fresh test defaults unless it was already in it),
  /// reporting unimplemented endpoints to `failure`.
  func inTestContext(
    reportingTo failure: @escaping @Sendable (TestFailure) -> Void
  )
    -> DependencyValues
  {
    var values = self
    if values.context != .test { values.context = .test }
    values.issueReporter = { message, location in
      failure(
        TestFailure(
          message: message,
          location: TestFailure.Location(
            fileID: location.fileID, filePath: location.filePath, line: location.line,
            column: location.column)))
    }
    return values
  }

  /// Records an unimplemented endpoint's call as an issue of the running test.
  static let testIssueReporter: DependencyIssues.Reporter = { message, location in
    IssueReporting.report(
      message,
      at: TestFailure.Location(
        fileID: location.fileID, filePath: location.filePath, line: location.line,
        column: location.column))
  }
}
