/// The server calls the auth service makes, as closures so tests can stub them.
///
/// `AuthClient.http(_:)` (in `AuthClient+Live.swift`) builds one over WeftNetworking's
/// `HTTPClient` and the shared `HealthAPI` endpoints.
///
/// - Note: Isolation: `Sendable`; the closures run in the caller's task.
/// - Complexity: O(1) to make and copy.
public struct AuthClient: Sendable {
  /// Exchanges credentials for a session.
  public var login: @Sendable (Credentials) async -> Result<AuthSession, AuthError>
  /// Tells the server to revoke `token`. Best effort: failures are ignored.
  public var logout: @Sendable (_ token: String) async -> Void

  /// Makes a client from closures.
  ///
  /// - Complexity: O(1).
  public init(
    login: @escaping @Sendable (Credentials) async -> Result<AuthSession, AuthError>,
    logout: @escaping @Sendable (_ token: String) async -> Void
  ) {
    self.login = login
    self.logout = logout
  }
}
