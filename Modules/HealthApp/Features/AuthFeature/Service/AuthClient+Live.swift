import HealthDomain
import WeftNetworking

extension AuthClient {
  /// A client that calls the `HealthAPI` auth endpoints through `client`.
  ///
  /// Server answers map to `AuthError`s: 401 `invalid_credentials` → `.invalidCredentials`,
  /// 403 `email_not_verified` → `.emailNotVerified`, a 401 for a token → `.tokenRejected`,
  /// anything else → `.network` with the error's one-line description.
  ///
  /// - Complexity: one request per call (plus the client's retries).
  /// - Note: Isolation: runs in the caller's task.
  public static func http(_ client: HTTPClient) -> AuthClient {
    AuthClient(
      login: { credentials in
        do throws(NetworkError) {
          let session = try await client.send(
            HealthAPI.login(email: credentials.email, password: credentials.password))
          return .success(
            AuthSession(
              token: session.token, userID: session.userID, email: credentials.email,
              expiresAt: session.expiresAt))
        } catch {
          return .failure(AuthError(error, email: credentials.email))
        }
      },
      logout: { token in
        var endpoint = HealthAPI.logout()
        endpoint.headers["Authorization"] = "Bearer \(token)"
        // The token is already forgotten on the device and expires on its own.
        _ = try? await client.send(endpoint)  // try?: signing out must not need the network
      })
  }
}

extension AuthError {
  /// The auth error a failed auth request means.
  ///
  /// - Complexity: O(e), e = the error's body excerpt (decoded once).
  public init(_ error: NetworkError, email: String) {
    switch HealthAPI.authFailure(of: error) {
    case .invalidCredentials: self = .invalidCredentials
    case .emailNotVerified: self = .emailNotVerified(email: email)
    case .invalidToken: self = .tokenRejected
    case nil: self = .network(Self.summary(of: error))
    }
  }

  private static func summary(of error: NetworkError) -> String {
    switch error.kind {
    case .offline: "offline"
    case .timeout(let after): "timed out after \(after)"
    case .cancelled: "cancelled"
    case .http(let status, _): "HTTP \(status)"
    case .decoding: "unreadable response"
    case .transport(let message): message
    case .authentication(let message): message
    case .encoding(let message): message
    }
  }
}
