/// An API call's failure as an event carries it: its description, so that events stay
/// `Equatable` and tests can compare them.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1).
public struct APIError: Error, Equatable, Sendable {
  /// What went wrong (the thrown error's description).
  public var message: String

  /// Makes a failure from its description.
  public init(_ message: String) { self.message = message }

  /// Runs `call`, its result or its error as an `APIError` (TCA's `Result { try await … }`).
  ///
  /// - Complexity: `call`'s.
  public static func result<Success>(
    _ call: () async throws -> Success
  ) async -> Result<Success, APIError> {
    do { return .success(try await call()) } catch { return .failure(APIError("\(error)")) }
  }
}
