/// One step of the schema's history: version `n` runs once, in its own transaction, on
/// every database whose `user_version` is below `n`, and sets it to `n`.
///
/// ```swift
/// let migrations = [
///   Migration(1, "create metric") { tx in
///     try tx.execute("""
///       CREATE TABLE metric (id TEXT PRIMARY KEY, kind TEXT NOT NULL, value REAL NOT NULL,
///                            recordedAt REAL NOT NULL, tags TEXT NOT NULL)
///       """)
///     try tx.createIndex(on: "metric", fields: ["kind", "recordedAt"])
///   },
///   Migration(2, "add metric.note") { tx in
///     try tx.execute("ALTER TABLE metric ADD COLUMN note TEXT")
///   },
/// ]
/// ```
///
/// > Important: Never edit or renumber a migration that has shipped: add a new one.
///
/// - Note: Isolation: the body runs on the writer connection, inside the migration's
///   transaction.
public struct Migration: Sendable {
  /// The schema version this migration produces (1, 2, 3, …).
  public let version: Int
  /// A short description, used in reports and errors.
  public let name: String
  /// The schema change.
  public let body: @Sendable (Transaction) throws -> Void

  /// Describes migration `version`.
  public init(
    _ version: Int, _ name: String, _ body: @escaping @Sendable (Transaction) throws -> Void
  ) {
    self.version = version
    self.name = name
    self.body = body
  }
}

/// A migration that ran while opening a database, and how long it took.
///
/// - Note: Isolation: a `Sendable` value.
public struct MigrationRun: Sendable, Equatable, CustomStringConvertible {
  /// The version the migration produced.
  public let version: Int
  /// The migration's name.
  public let name: String
  /// Wall time from `BEGIN` to `COMMIT`.
  public let duration: Duration

  public var description: String { "migration \(version) \"\(name)\" took \(duration)" }
}

extension Migration {
  /// Checks that versions run 1, 2, 3, … without gaps or repeats.
  static func validate(_ migrations: [Migration]) throws {
    for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
      throw PersistenceError.invalidMigrations(
        detail:
          "migration \"\(migration.name)\" at position \(offset + 1) has version "
          + "\(migration.version); expected \(offset + 1)")
    }
  }
}
