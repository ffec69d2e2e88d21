import Foundation
import WeftCore
import WeftPersistence

/// Loads, saves and clears the persisted session: who is signed in and until when in the
/// app's database (`auth_session`), the token in a `SecureStorage` (the Keychain on Apple
/// platforms) — never in the database, which is copied, backed up and attached to bug
/// reports.
///
/// ```swift
/// let sessions = SessionStore(database: database, secrets: secrets)
/// try await sessions.save(session)
/// let restored = try await sessions.load()     // after a relaunch
/// ```
///
/// A row whose token is missing from the store (the store was reset, or the app was
/// restored on another device) is no session: `load()` returns nil and removes the row.
///
/// - Complexity: each call is one statement on the database and one call to the store.
/// - Note: Isolation: `Sendable`; calls run on the database's connections and the store.
/// - Note: Allocations: one record per call.
public struct SessionStore: Sendable {
  /// The key of the session token in the secure store.
  public static let tokenKey = "auth.session.token"

  /// The database holding `auth_session` (see `AuthSchema`).
  public let database: Database
  /// Where the token is kept.
  public let secrets: any SecureStorage

  /// Makes a store over `database` and `secrets`.
  ///
  /// - Complexity: O(1).
  public init(database: Database, secrets: any SecureStorage) {
    self.database = database
    self.secrets = secrets
  }

  /// The persisted session, or nil when nobody is signed in.
  ///
  /// - Throws: `PersistenceError` when the database cannot be read, `SecureStorageError`
  ///   when the store cannot.
  /// - Complexity: O(1).
  public func load() async throws -> AuthSession? {
    guard let record = try await database.fetch(SessionRecord.self, id: SessionRecord.currentID)
    else { return nil }
    guard let token = try await secrets.readString(Self.tokenKey) else {
      _ = try await database.delete(SessionRecord.self, id: SessionRecord.currentID)
      return nil
    }
    return record.session(token: token)
  }

  /// Persists `session`, replacing any previous one: the token first, so a saved row
  /// always has its token.
  ///
  /// - Throws: `SecureStorageError` when the store refuses the token, `PersistenceError`
  ///   when the database cannot be written.
  /// - Complexity: O(1).
  public func save(_ session: AuthSession) async throws {
    try await secrets.setString(session.token, for: Self.tokenKey)
    try await database.save(SessionRecord(session))
  }

  /// Removes the persisted session, if any: the row, then the token.
  ///
  /// - Throws: `PersistenceError` when the database cannot be written, `SecureStorageError`
  ///   when the store refuses the deletion.
  /// - Complexity: O(1).
  public func clear() async throws {
    _ = try await database.delete(SessionRecord.self, id: SessionRecord.currentID)
    try await secrets.delete(Self.tokenKey)
  }
}
