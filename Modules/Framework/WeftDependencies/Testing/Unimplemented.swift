/// The error an unimplemented throwing endpoint throws after reporting that it was called.
///
/// - Complexity: O(1).
/// - Note: Isolation: a `Sendable` value.
public struct UnimplementedEndpoint: Error, Sendable, Hashable, CustomStringConvertible {
  /// The endpoint's name, as given to `unimplemented(_:)` (`"FactClient.fetch"`).
  public let endpoint: String

  /// Makes the error for `endpoint`.
  public init(endpoint: String) { self.endpoint = endpoint }

  public var description: String { "unimplemented: \(endpoint)" }
}

/// An endpoint that fails the test calling it: it reports an issue naming `endpoint` (at the
/// line that declared it), then throws `UnimplementedEndpoint`.
///
/// ```swift
/// static let testValue = FactClient(fetch: unimplemented("FactClient.fetch"))
/// ```
///
/// Any arity: the closure type comes from where it is used. A non-throwing endpoint takes
/// `unimplemented(_:placeholder:)`.
///
/// - Complexity: O(1) to make; a call costs one report.
/// - Note: Isolation: the closure is `@Sendable`; it reports from wherever it is called.
public func unimplemented<each Argument, Result>(
  _ endpoint: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  let location = DependencyIssues.Location(
    fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Argument) in
    DependencyIssues.report(DependencyIssues.unimplementedMessage(endpoint), at: location)
    throw UnimplementedEndpoint(endpoint: endpoint)
  }
}

/// A non-throwing endpoint that fails the test calling it: it reports an issue naming
/// `endpoint` (at the line that declared it), then returns `placeholder`.
///
/// ```swift
/// static let testValue = Analytics(track: unimplemented("Analytics.track", placeholder: ()))
/// ```
///
/// The closure converts to an `async` or `throws` type where one is needed.
///
/// - Complexity: O(1) to make; a call costs one report.
/// - Note: Isolation: the closure is `@Sendable`; it reports from wherever it is called.
public func unimplemented<each Argument, Result: Sendable>(
  _ endpoint: String, placeholder: Result, fileID: StaticString = #fileID,
  filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) -> Result {
  let location = DependencyIssues.Location(
    fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Argument) in
    DependencyIssues.report(DependencyIssues.unimplementedMessage(endpoint), at: location)
    return placeholder
  }
}
