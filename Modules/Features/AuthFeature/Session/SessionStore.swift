import Foundation
import WeftPersistence

/// Loads, saves and clears the persisted session in the app's database.
///
/// ```swift
/// let sessions = SessionStore(database: database)
/// try await sessions.save(session)
/// let restored = try await sessions.load()     // after a relaunch
/// ```
///
/// - Complexity: each call is one statement on the database.
/// - Note: Isolation: `Sendable`; calls run on the database's connections.
/// - Note: Allocations: one record per call.
public struct SessionStore: Sendable {
  /// The database holding `auth_session` (see `AuthSchema`).
  public let database: Database

  /// Makes a store over `database`.
  ///
  /// - Complexity: O(1).
  public init(database: Database) { self.database = database }

  /// The persisted session, or nil when nobody is signed in.
  ///
  /// - Throws: `PersistenceError` when the database cannot be read.
  /// - Complexity: O(1).
  public func load() async throws -> AuthSession? {
    try await database.fetch(SessionRecord.self, id: SessionRecord.currentID)?.session
  }

  /// Persists `session`, replacing any previous one.
  ///
  /// - Throws: `PersistenceError` when the database cannot be written.
  /// - Complexity: O(1).
  public func save(_ session: AuthSession) async throws {
    try await database.save(SessionRecord(session))
  }

  /// Removes the persisted session, if any.
  ///
  /// - Throws: `PersistenceError` when the database cannot be written.
  /// - Complexity: O(1).
  public func clear() async throws {
    _ = try await database.delete(SessionRecord.self, id: SessionRecord.currentID)
  }
}
