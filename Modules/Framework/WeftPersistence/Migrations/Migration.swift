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
  public let body: @Sendable (DatabaseTransaction) throws -> Void

  /// Describes migration `version`.
  public init(
    _ version: Int, _ name: String, _ body: @escaping @Sendable (DatabaseTransaction) throws -> Void
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

  /// `migration 2 "create todo" took 1.23 ms`: the duration with a unit (ns, µs, ms or s)
  /// and three significant digits, the same text in every locale.
  public var description: String {
    "migration \(version) \"\(name)\" took \(duration.withUnit)"
  }
}

extension Duration {
  /// `850 ns`, `18.2 µs`, `4.56 ms`, `1.23 s`: the largest unit that keeps the value at
  /// least 1, three significant digits, no locale.
  fileprivate var withUnit: String {
    let nanoseconds = Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    if nanoseconds < 999.5 { return "\(Int(max(0, nanoseconds).rounded())) ns" }
    let units = ["ns", "µs", "ms", "s"]
    var value = nanoseconds
    var unit = 0
    while value >= 999.5 && unit < units.count - 1 {
      value /= 1_000
      unit += 1
    }
    let decimals = value < 9.995 ? 2 : (value < 99.95 ? 1 : 0)
    let scale = [1, 10, 100][decimals]
    let scaled = Int((value * Double(scale)).rounded())
    guard decimals > 0 else { return "\(scaled) \(units[unit])" }
    let fraction = String(scaled % scale)
    let padding = String(repeating: "0", count: decimals - fraction.count)
    return "\(scaled / scale).\(padding)\(fraction) \(units[unit])"
  }
}

extension Migration {
  /// Checks that versions run 1, 2, 3, … without gaps or repeats.
  static func validate(_ migrations: [Migration]) throws(PersistenceError) {
    for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
      throw PersistenceError.invalidMigrations(
        detail:
          "migration \"\(migration.name)\" at position \(offset + 1) has version "
          + "\(migration.version); expected \(offset + 1)")
    }
  }
}
