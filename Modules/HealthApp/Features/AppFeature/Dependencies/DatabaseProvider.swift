import Foundation
import WeftCore
import WeftPersistence

/// Opens the app's database at launch and releases it when the app is torn down.
///
/// - `file(path:)`: opens the file at every launch and closes it at teardown, so a relaunch
///   reads back exactly what was committed (the live configuration, and simulated runs that
///   test persistence).
/// - `memory`: opens an in-memory database once and keeps it across relaunches (a second
///   in-memory connection would be another, empty database).
///
/// - Complexity: `open` runs the migrations the first time (O(migrations)).
/// - Note: Isolation: thread-safe; `Sendable`.
/// - Note: Allocations: the database's connections.
public final class DatabaseProvider: Sendable {
  /// Where the data lives.
  ///
  /// - Complexity: O(1) to make and compare.
  /// - Note: Isolation: a `Sendable` value; any isolation.
  public enum Location: Sendable, Equatable {
    /// A file at `path`.
    case file(path: String)
    /// Memory, kept for the provider's lifetime.
    case memory
  }

  /// Where the data lives.
  public let location: Location
  /// The migrations every open runs.
  public let migrations: [Migration]
  /// The configuration every open uses.
  public let configuration: Database.Configuration
  private let kept = Locked<Database?>(nil)

  /// Makes a provider.
  ///
  /// - Complexity: O(1).
  public init(
    _ location: Location, migrations: [Migration], configuration: Database.Configuration
  ) {
    self.location = location
    self.migrations = migrations
    self.configuration = configuration
  }

  /// Opens (or, in memory, returns) the database.
  ///
  /// - Throws: `PersistenceError` when the file cannot be opened or migrated.
  /// - Complexity: O(1).
  public func open() async throws -> Database {
    switch location {
    case .file(let path):
      return try await Database.open(
        at: path, migrations: migrations, configuration: configuration)
    case .memory:
      if let database = kept.withLock({ $0 }) { return database }
      let database = try await Database.inMemory(
        migrations: migrations, configuration: configuration)
      kept.withLock { $0 = database }
      return database
    }
  }

  /// Releases `database` at teardown: closes a file; keeps memory.
  ///
  /// - Complexity: O(1).
  public func release(_ database: Database) async {
    if case .file = location { await database.close() }
  }

  /// Closes whatever is kept (the in-memory database) for good.
  ///
  /// - Complexity: O(1).
  public func close() async {
    let database = kept.withLock { state -> Database? in
      defer { state = nil }
      return state
    }
    await database?.close()
  }
}
