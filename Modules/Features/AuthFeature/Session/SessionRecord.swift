import Foundation
import WeftPersistence

/// The persisted form of the current session: one row, id `"current"`, in `auth_session`.
///
/// - Note: Isolation: a `Sendable` value.
public struct SessionRecord: PersistableRecord, Equatable {
  public static let tableName = "auth_session"
  /// The only id the table uses: there is at most one signed-in session per device.
  public static let currentID = "current"

  public var id: String
  public var token: String
  public var userID: String
  public var email: String
  public var expiresAt: Date

  /// Makes the record for `session`.
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
