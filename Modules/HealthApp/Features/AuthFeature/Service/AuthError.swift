/// Why signing in failed, or why a session ended.
///
/// The description is the message the login screen shows; tests pin its wording.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and compare.
public enum AuthError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The email and password do not match an account. The login screen clears the password.
  case invalidCredentials
  /// The account exists but its email address has not been verified yet.
  case emailNotVerified(email: String)
  /// The session's token reached its expiry date.
  case sessionExpired
  /// The server no longer accepts the session's token (revoked, or signed out elsewhere).
  case tokenRejected
  /// The server could not be reached or failed; trying again may work.
  case network(String)
  /// The session could not be saved or read on the device.
  case storage(String)

  public var description: String {
    switch self {
    case .invalidCredentials:
      "The email or password is incorrect. Check them and try again."
    case .emailNotVerified(let email):
      "Verify \(email) before signing in: open the link we emailed you, then sign in again."
    case .sessionExpired:
      "Your session expired. Sign in again."
    case .tokenRejected:
      "You were signed out. Sign in again."
    case .network(let detail):
      "Could not reach the server (\(detail)). Check your connection and retry."
    case .storage(let detail):
      "Could not save the session on this device (\(detail))."
    }
  }

  /// Whether retrying with the same credentials can succeed: network failures, storage
  /// failures, and an email that may have been verified since.
  public var isRetryable: Bool {
    switch self {
    case .network, .storage, .emailNotVerified: true
    case .invalidCredentials, .sessionExpired, .tokenRejected: false
    }
  }

  /// A short name for the case (`invalidCredentials`, `network`, ...), for logs and flows.
  public var name: String {
    switch self {
    case .invalidCredentials: "invalidCredentials"
    case .emailNotVerified: "emailNotVerified"
    case .sessionExpired: "sessionExpired"
    case .tokenRejected: "tokenRejected"
    case .network: "network"
    case .storage: "storage"
    }
  }
}

/// Signing out (or ending a session) happened, but the session saved on the device could not
/// be deleted: the next launch may find it and restore a session the user left.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and compare.
public struct SessionNotCleared: Error, Sendable, Hashable, CustomStringConvertible {
  /// The database's error.
  public var detail: String

  /// Makes the error.
  ///
  /// - Complexity: O(1).
  public init(detail: String) { self.detail = detail }

  public var description: String {
    "the session saved on this device could not be deleted (\(detail)): the next launch may "
      + "restore it"
  }
}
