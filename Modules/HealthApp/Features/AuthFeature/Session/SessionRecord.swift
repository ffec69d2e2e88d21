import Foundation
import WeftPersistence

/// The persisted form of the current session: one row, id `"current"`, in `auth_session`:
/// who is signed in and until when. Never the token: `SessionStore` keeps it in a
/// `SecureStorage`.
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
  /// The server's id for the user.
  public var userID: String
  /// The email the user signed in with.
  public var email: String
  /// When the token expires.
  public var expiresAt: Date

  /// Makes the record for `session` (everything but its token).
  ///
  /// - Complexity: O(1).
  public init(_ session: AuthSession) {
    id = Self.currentID
    userID = session.userID
    email = session.email
    expiresAt = session.expiresAt
  }

  /// The session this record describes, with `token` from the secure store.
  ///
  /// - Complexity: O(1).
  public func session(token: String) -> AuthSession {
    AuthSession(token: token, userID: userID, email: email, expiresAt: expiresAt)
  }
}

/// The schema AuthFeature adds to the app's database.
///
/// The composition root appends its migrations after the shared health schema:
///
/// ```swift
/// let migrations = HealthSchema.migrations
///   + AuthSchema.migrations(after: HealthSchema.migrations.count)
/// ```
///
/// - Complexity: O(1).
/// - Note: Isolation: stateless; any isolation.
public enum AuthSchema {
  /// Auth's migrations, numbered from `version + 1`: `createSession`, then
  /// `removeSessionToken`.
  ///
  /// - Complexity: O(1).
  public static func migrations(after version: Int) -> [Migration] {
    [createSession(version: version + 1), removeSessionToken(version: version + 2)]
  }

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

  /// The migration that takes the token out of the database (it moved to the secure
  /// store): the saved session is deleted, so a user signed in before this version signs in
  /// again once, and the column is dropped. `secure_delete` makes SQLite overwrite the
  /// freed bytes with zeros rather than leave the old token in free pages.
  ///
  /// - Complexity: O(1) to make; running it rewrites `auth_session` (one row at most).
  public static func removeSessionToken(version: Int) -> Migration {
    Migration(version, "auth_session without token") { tx in
      try tx.execute("PRAGMA secure_delete = ON")
      try tx.execute("DELETE FROM auth_session")
      try tx.execute("ALTER TABLE auth_session DROP COLUMN token")
      try tx.execute("PRAGMA secure_delete = OFF")
    }
  }
}
