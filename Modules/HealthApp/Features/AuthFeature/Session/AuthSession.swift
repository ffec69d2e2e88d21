import Foundation

/// What a user types to sign in.
///
/// Its description never shows the password, so credentials can appear in effect logs and
/// test failures safely.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and copy.
public struct Credentials: Sendable, Hashable, CustomStringConvertible {
  /// The email address the account was registered with.
  public var email: String
  /// The password, as typed.
  public var password: String

  /// Makes credentials.
  ///
  /// - Complexity: O(1).
  public init(email: String, password: String) {
    self.email = email
    self.password = password
  }

  public var description: String { "\(email) (password: \(password.count) characters)" }
}

/// A signed-in user's session: the bearer token, who it belongs to, and when it expires.
///
/// Persisted by `SessionStore` so it survives a relaunch.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and copy.
public struct AuthSession: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The bearer token sent with every request.
  public var token: String
  /// The server's id for the user.
  public var userID: String
  /// The email the user signed in with.
  public var email: String
  /// The moment the server stops accepting `token`.
  public var expiresAt: Date

  /// Makes a session.
  ///
  /// - Complexity: O(1).
  public init(token: String, userID: String, email: String, expiresAt: Date) {
    self.token = token
    self.userID = userID
    self.email = email
    self.expiresAt = expiresAt
  }

  /// Whether the token is still valid at `now`.
  ///
  /// - Complexity: O(1).
  public func isValid(at now: Date) -> Bool { expiresAt > now }

  /// The signed-in user.
  public var user: AuthUser { AuthUser(id: userID, email: email) }

  public var description: String {
    "session of \(email) (\(userID)), token \(token.prefix(4))…, expires \(expiresAt)"
  }
}

/// The signed-in user, as the app shows it.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and copy.
public struct AuthUser: Sendable, Hashable, Codable {
  /// The server's id for the user.
  public var id: String
  /// The user's email address.
  public var email: String

  /// Makes a user.
  ///
  /// - Complexity: O(1).
  public init(id: String, email: String) {
    self.id = id
    self.email = email
  }
}
