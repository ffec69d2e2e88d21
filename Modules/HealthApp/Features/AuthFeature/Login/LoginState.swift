/// The login screen's state.
///
/// `canSubmit` is derived: both fields filled in and no sign-in in progress.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and copy.
public struct LoginState: Sendable, Hashable {
  /// The email field.
  public var email = ""
  /// The password field.
  public var password = ""
  /// Whether a sign-in is in progress (mirrors the auth service).
  public var isLoading = false
  /// The last error, until dismissed or a new attempt starts.
  public var error: AuthError?
  /// How many submissions the screen accepted; what the submit feedback reacts to.
  public internal(set) var submissions = 0

  /// The empty screen.
  ///
  /// - Complexity: O(1).
  public init() {}

  /// The message shown under the form, if any.
  public var errorMessage: String? { error?.description }

  /// Whether the sign-in button is enabled.
  public var canSubmit: Bool { !email.isEmpty && !password.isEmpty && !isLoading }
}

/// What the user does on the login screen.
///
/// - Complexity: O(1) to make and compare.
/// - Note: Isolation: a `Sendable` value; any isolation.
public enum LoginAction: Sendable, Hashable {
  /// Typed into the email field.
  case setEmail(String)
  /// Typed into the password field.
  case setPassword(String)
  /// Pressed the sign-in button (ignored unless `canSubmit`).
  case submit
  /// Dismissed the error message.
  case dismissError
  /// Cleared the screen (logout).
  case reset
}

/// What the login screen's system reduces: user actions and auth-state changes.
///
/// - Complexity: O(1) to make and compare.
/// - Note: Isolation: a `Sendable` value; any isolation.
public enum LoginEvent: Sendable, Hashable {
  /// A user action.
  case action(LoginAction)
  /// The auth service's state changed.
  case auth(AuthState)
}

/// Where the login screen sends the user. The composition root maps routes to app state
/// (AuthFeature does not know the app's tabs or sheets).
///
/// - Complexity: O(1) to make and compare.
/// - Note: Isolation: a `Sendable` value; any isolation.
public enum LoginRoute: Sendable, Hashable {
  /// Signed in: show the home screen.
  case home
  /// The account's email is not verified: present the verification sheet.
  case verifyEmail(email: String)
  /// The session ended (expired or rejected): show the login screen with `reason`.
  case login(reason: AuthError)
}

extension LoginState {
  /// The login screen's transition function.
  ///
  /// Invalid credentials clear the password; a successful sign-in clears it too.
  ///
  /// - Complexity: O(1).
  public static func reduce(_ state: inout LoginState, _ event: LoginEvent) {
    switch event {
    case .action(.setEmail(let email)):
      state.email = email
    case .action(.setPassword(let password)):
      state.password = password
    case .action(.submit):
      guard state.canSubmit else { return }
      state.isLoading = true
      state.error = nil
      state.submissions += 1
    case .action(.dismissError):
      state.error = nil
    case .action(.reset):
      let submissions = state.submissions
      state = LoginState()
      state.submissions = submissions
    case .auth(let auth):
      state.isLoading = auth.isLoading
      switch auth {
      case .idle, .authenticating:
        break
      case .authenticated:
        state.password = ""
        state.error = nil
      case .failed(let error, _):
        state.error = error
        if error == .invalidCredentials { state.password = "" }
      }
    }
  }

  /// The route an event leads to, if any.
  ///
  /// - Complexity: O(1).
  public static func route(_ event: LoginEvent, _ state: LoginState) -> LoginRoute? {
    guard case .auth(let auth) = event else { return nil }
    switch auth {
    case .authenticated: return .home
    case .failed(.emailNotVerified(let email), _): return .verifyEmail(email: email)
    case .failed(.sessionExpired, _): return .login(reason: .sessionExpired)
    case .failed(.tokenRejected, _): return .login(reason: .tokenRejected)
    case .idle, .authenticating, .failed: return nil
    }
  }
}
