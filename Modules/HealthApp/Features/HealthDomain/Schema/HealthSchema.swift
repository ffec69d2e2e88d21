import WeftPersistence

/// The tables of the health app, as WeftPersistence migrations: `health_metric` and
/// `insight`, indexed on the fields the dashboard filters and sorts by.
///
/// ```swift
/// let database = try await Database.open(at: path, migrations: HealthSchema.migrations)
/// ```
///
/// The outbox table (`weft_outbox`) is not here: WeftPersistence installs it itself when any
/// database opens, outside the app's schema version. A feature that needs more tables
/// appends migrations numbered from `HealthSchema.migrations.count + 1`.
///
/// > Important: Never edit or renumber a migration that has shipped: append a new one.
///
/// - Note: Isolation: `Sendable` values; bodies run on the writer connection.
public enum HealthSchema {
  /// Version 1: `health_metric` with indexes on `type`, `date` and `(type, date)`.
  public static let createHealthMetric = Migration(1, "create health_metric") { tx in
    try tx.execute(
      """
      CREATE TABLE health_metric (
        id TEXT PRIMARY KEY NOT NULL,
        type TEXT NOT NULL,
        value REAL NOT NULL,
        unit TEXT NOT NULL,
        date REAL NOT NULL,
        notes TEXT,
        source TEXT NOT NULL,
        createdAt REAL NOT NULL)
      """)
    try tx.createIndex(on: HealthMetric.self, fields: ["type"])
    try tx.createIndex(on: HealthMetric.self, fields: ["date"])
    try tx.createIndex(on: HealthMetric.self, fields: ["type", "date"])
  }

  /// Version 2: `insight` with an index on `date`.
  public static let createInsight = Migration(2, "create insight") { tx in
    try tx.execute(
      """
      CREATE TABLE insight (
        id TEXT PRIMARY KEY NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        date REAL NOT NULL,
        priority TEXT NOT NULL)
      """)
    try tx.createIndex(on: Insight.self, fields: ["date"])
  }

  /// Every migration, in order.
  public static let migrations: [Migration] = [createHealthMetric, createInsight]

  /// The schema version `migrations` produce.
  public static var version: Int { migrations.count }
}
