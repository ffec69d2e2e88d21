import Foundation
import WeftPersistence

/// The persisted form of the current session: one row, id `"current"`, in `auth_session`.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and copy.
public struct SessionRecord: PersistableRecord, Equatable {
  /// `"auth_session"`.
  public static let tableName = "auth_session"
  /// The only id the table uses: there is at most one signed-in session per device.
  public static let currentID = "current"

  /// Always `currentID`.
  public var id: String
  /// The bearer token.
  public var token: String
  /// The server's id for the user.
  public var userID: String
  /// The email the user signed in with.
  public var email: String
  /// When the token expires.
  public var expiresAt: Date

  /// Makes the record for `session`.
  ///
  /// - Complexity: O(1).
  public init(_ session: AuthSession) {
    id = Self.currentID
    token = session.token
    userID = session.userID
    email = session.email
    expiresAt = session.expiresAt
  }

  /// The session this record stores.
  public var session: AuthSession {
    AuthSession(token: token, userID: userID, email: email, expiresAt: expiresAt)
  }
}

/// The schema AuthFeature adds to the app's database.
///
/// The composition root appends it after the shared health schema:
///
/// ```swift
/// let migrations = HealthSchema.migrations
///   + [AuthSchema.createSession(version: HealthSchema.migrations.count + 1)]
/// ```
///
/// - Complexity: O(1).
/// - Note: Isolation: stateless; any isolation.
public enum AuthSchema {
  /// The migration that creates `auth_session`, numbered `version` in the app's sequence.
  ///
  /// - Complexity: O(1) to make; running it executes one `CREATE TABLE`.
  public static func createSession(version: Int) -> Migration {
    Migration(version, "create auth_session") { tx in
      try tx.execute(
        """
        CREATE TABLE auth_session (
          id TEXT PRIMARY KEY NOT NULL,
          token TEXT NOT NULL,
          userID TEXT NOT NULL,
          email TEXT NOT NULL,
          expiresAt REAL NOT NULL)
        """)
    }
  }
}
