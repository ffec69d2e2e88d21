/// The auth service's state: a finite machine.
///
/// ```
/// idle ──login──▶ authenticating(credentials) ──ok──▶ authenticated(session)
///   ▲                    │                                  │
///   │                    └──error──▶ failed(error, retry?)   │ expired / rejected
///   └──────────── logout (from any state) ◀──────────────────┘──▶ failed(.sessionExpired…)
/// ```
///
/// `retry` keeps the credentials of a failure that retrying can fix (`AuthError.isRetryable`)
/// so `AuthEvent.retry` can try them again; it is nil after wrong credentials.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and compare.
public enum AuthState: Sendable, Hashable, CustomStringConvertible {
  /// Nobody is signed in and nothing is happening.
  case idle
  /// The credentials are being checked by the server.
  case authenticating(Credentials)
  /// Signed in.
  case authenticated(AuthSession)
  /// The last sign-in failed, or the session ended.
  case failed(AuthError, retry: Credentials?)

  /// The initial state.
  public static let initial = AuthState.idle

  /// The credentials being checked, while authenticating.
  public var authenticatingCredentials: Credentials? {
    guard case .authenticating(let credentials) = self else { return nil }
    return credentials
  }

  /// The session, while signed in.
  public var session: AuthSession? {
    guard case .authenticated(let session) = self else { return nil }
    return session
  }

  /// The error of a failed state.
  public var error: AuthError? {
    guard case .failed(let error, _) = self else { return nil }
    return error
  }

  /// Whether a user is signed in.
  public var isAuthenticated: Bool { session != nil }

  /// Whether credentials are being checked.
  public var isLoading: Bool { authenticatingCredentials != nil }

  /// Every case's `name`, in declaration order.
  public static let names = ["idle", "authenticating", "authenticated", "failed"]

  /// The case's name: `idle`, `authenticating`, `authenticated` or `failed`.
  public var name: String {
    switch self {
    case .idle: "idle"
    case .authenticating: "authenticating"
    case .authenticated: "authenticated"
    case .failed: "failed"
    }
  }

  public var description: String {
    switch self {
    case .idle: "idle"
    case .authenticating(let credentials): "authenticating(\(credentials))"
    case .authenticated(let session): "authenticated(\(session))"
    case .failed(let error, let retry):
      "failed(\(error.name)\(retry == nil ? "" : ", retryable"))"
    }
  }
}

/// What happens to the auth service: user intents and effect results.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and compare.
public enum AuthEvent: Sendable, Hashable {
  /// The user asked to sign in.
  case login(Credentials)
  /// The user asked to try the last retryable sign-in again.
  case retry
  /// The sign-in effect finished.
  case finished(Result<AuthSession, AuthError>)
  /// The user signed out (or the app is signing them out).
  case logout
  /// The session ended without the user asking: expired or rejected token.
  case sessionEnded(AuthError)
}

extension AuthState {
  /// The pure transition function of the auth service.
  ///
  /// Events that make no sense in the current state (a result while idle, a retry with
  /// nothing to retry) change nothing.
  ///
  /// - Complexity: O(1).
  public static func reduce(_ state: inout AuthState, _ event: AuthEvent) {
    switch event {
    case .login(let credentials):
      state = .authenticating(credentials)
    case .retry:
      // Only a failure that kept its credentials can be retried.
      if case .failed(_, let retry?) = state { state = .authenticating(retry) }  // else ignored
    case .finished(.success(let session)):
      if state.isLoading { state = .authenticated(session) }
    case .finished(.failure(let error)):
      if let credentials = state.authenticatingCredentials {
        state = .failed(error, retry: error.isRetryable ? credentials : nil)
      }
    case .logout:
      state = .idle
    case .sessionEnded(let error):
      if state.isAuthenticated { state = .failed(error, retry: nil) }
    }
  }
}
