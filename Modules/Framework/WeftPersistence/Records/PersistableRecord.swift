/// A `Codable` model stored as one row of one table: each top-level field is a column.
///
/// ```swift
/// struct Metric: PersistableRecord {
///   static let tableName = "metric"
///   var id: UUID
///   var kind: String
///   var value: Double
///   var recordedAt: Date
///   var tags: [String]      // nested values are stored as JSON text
/// }
/// try await database.write { try $0.save(Metric(...)) }
/// ```
///
/// The table must exist (create it in a migration) with a column per field, named like the
/// field's coding key, and `idColumn` as its primary key (or a unique column). Storage per
/// field type: integers and `Bool` as INTEGER, `Double`/`Float` as REAL, `String` as TEXT,
/// `Date` as REAL seconds since 1970, `UUID` and `URL` as TEXT, `Data` as BLOB, `nil` as
/// NULL, raw-value enums as their raw value, and any other `Codable` value as JSON TEXT.
///
/// - Note: Isolation: records are `Sendable` values; they cross into the database's
///   connections and back.
public protocol PersistableRecord: Codable, Identifiable, Sendable where ID: Codable & Sendable {
  /// The table holding the records, for example `"metric"`.
  static var tableName: String { get }
  /// The column holding `id`; `"id"` unless you say otherwise.
  static var idColumn: String { get }
}

extension PersistableRecord {
  /// `"id"`.
  public static var idColumn: String { "id" }
}
