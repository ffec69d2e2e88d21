import CSQLite

/// What a `write` closure receives: one write transaction, committed when the closure
/// returns and rolled back if it throws.
///
/// ```swift
/// try await database.write { tx in
///   try tx.save(metric)
///   try tx.enqueue(.create, metric)   // the sync operation, in the same transaction
/// }
/// ```
///
/// Reads inside the closure see the transaction's own uncommitted writes.
///
/// > Important: Use it only inside the closure that received it: it is not `Sendable`, so
/// > the compiler keeps it from escaping to another task.
///
/// - Note: Isolation: runs on the writer connection's serial executor (never the MainActor);
///   one write transaction at a time per database.
public struct DatabaseTransaction {
  let connection: Connection
  let environment: DatabaseEnvironment

  /// The same fetches as a read, inside this transaction.
  public var reader: ReadContext { ReadContext(connection: connection) }

  // MARK: Records

  /// Inserts `record`, or updates the row with the same id in place (an upsert, so rows
  /// referring to it through foreign keys are kept).
  ///
  /// - Throws: `PersistenceError.encodingFailed`, `.constraintViolation` (naming the table
  ///   and id), `.schemaMismatch` when the table or a column is missing.
  /// - Complexity: O(f + log n), f = fields, n = rows.
  /// - Note: Allocations: one `Codable` container box per record on the steady path (the
  ///   statement is prepared once per model type per connection).
  public func save<R: PersistableRecord>(_ record: R) throws(PersistenceError) {
    try connection.save(record)
  }

  /// Saves every record of `records`, in order.
  ///
  /// - Complexity: O(k·(f + log n)), k = records.
  public func save<S: Sequence>(contentsOf records: S) throws(PersistenceError)
  where S.Element: PersistableRecord {
    for record in records { try connection.save(record) }
  }

  /// Deletes the record of `type` with `id`; returns whether it existed.
  ///
  /// - Complexity: O(log n).
  @discardableResult
  public func delete<R: PersistableRecord>(
    _ type: R.Type, id: R.ID
  ) throws(PersistenceError) -> Bool {
    try connection.delete(type, id: id)
  }

  /// Deletes every record of `type` matching `predicate` (all of them when `nil`); returns
  /// how many were deleted.
  ///
  /// - Complexity: O(log n + k) with an index on the predicate's fields, O(n) without.
  @discardableResult
  public func delete<R: PersistableRecord>(
    _ type: R.Type, where predicate: RecordPredicate?
  ) throws(PersistenceError)
    -> Int
  {
    try connection.delete(type, where: predicate)
  }

  // MARK: SQL and schema

  /// Runs raw SQL (DDL in migrations, bulk updates). Pass values as `arguments` (bound to
  /// `?`, `?1`, …), never inside `sql`. Returns the number of rows changed.
  ///
  /// - Complexity: SQLite's; the statement is prepared once and cached.
  @discardableResult
  public func execute(
    _ sql: String, _ arguments: [DatabaseValue] = []
  ) throws(PersistenceError) -> Int {
    let before = sqlite3_total_changes64(connection.handle)
    try connection.execute(sql, arguments)
    return Int(sqlite3_total_changes64(connection.handle) - before)
  }

  /// Creates an index on `fields` of `table` (if it does not exist yet), named
  /// `<table>_<field>_…` unless `name` is given. Index the fields your predicates and sorts
  /// use, so fetches are O(log n + k) instead of full scans.
  ///
  /// - Throws: `PersistenceError.invalidField` when a name is not a plain identifier.
  /// - Complexity: O(n log n), n = rows already in the table.
  public func createIndex(
    on table: String, fields: [String], unique: Bool = false, name: String? = nil
  ) throws(PersistenceError) {
    let builder = SQLBuilder(table: table)
    var columns: [String] = []
    for field in fields { columns.append(try builder.column(Field(field))) }
    let indexName = name ?? ([table] + fields).joined(separator: "_")
    let sql =
      "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(SQLBuilder.quote(indexName)) "
      + "ON \(SQLBuilder.quote(table)) (\(columns.joined(separator: ", ")))"
    try connection.execute(sql, table: table)
  }

  /// Creates an index on `fields` of `type`'s table.
  ///
  /// - Complexity: O(n log n), n = rows already in the table.
  public func createIndex<R: PersistableRecord>(
    on type: R.Type, fields: [String], unique: Bool = false, name: String? = nil
  ) throws(PersistenceError) {
    try createIndex(on: R.tableName, fields: fields, unique: unique, name: name)
  }
}
