/// Reads of records and raw rows, written once for a read's `ReadContext` and a write's
/// `DatabaseTransaction` (which reads on its own connection, so it sees its own writes).
extension DatabaseReading {
  /// The record with `id`, or `nil` (in a write, it sees the transaction's own writes).
  ///
  /// - Complexity: O(log n + f), n = rows, f = fields.
  /// - Note: Allocations: the record, plus one decoder.
  public func fetch<R: PersistableRecord>(_ type: R.Type, id: R.ID) throws(PersistenceError) -> R? {
    try reader.connection.fetch(type, id: id)
  }

  /// Every record matching `descriptor`.
  ///
  /// - Complexity: O(log n + k·f) with an index on the predicate's fields, O(n + k·f)
  ///   without; k = records returned.
  /// - Note: Allocations: the result array and its records, one decoder, and the SQL text.
  public func fetchAll<R: PersistableRecord>(
    _ descriptor: FetchDescriptor<R>
  ) throws(PersistenceError) -> [R] {
    try reader.connection.fetchAll(descriptor)
  }

  /// Every record of `type` matching `predicate`, sorted and limited.
  ///
  /// - Complexity: as `fetchAll(_:)` with a descriptor.
  public func fetchAll<R: PersistableRecord>(
    _ type: R.Type, where predicate: RecordPredicate? = nil, sortBy: [Sort] = [], limit: Int? = nil,
    offset: Int? = nil
  ) throws(PersistenceError) -> [R] {
    try reader.connection.fetchAll(
      FetchDescriptor<R>(where: predicate, sortBy: sortBy, limit: limit, offset: offset))
  }

  /// The first record matching `predicate` in `sortBy` order, or `nil`.
  ///
  /// - Complexity: O(log n) with an index that serves both, else O(n).
  public func fetchFirst<R: PersistableRecord>(
    _ type: R.Type, where predicate: RecordPredicate? = nil, sortBy: [Sort] = []
  ) throws(PersistenceError) -> R? {
    try reader.connection.fetchAll(FetchDescriptor<R>(where: predicate, sortBy: sortBy, limit: 1))
      .first
  }

  /// How many records of `type` match `predicate`.
  ///
  /// - Complexity: O(log n + k) with an index, O(n) without.
  public func count<R: PersistableRecord>(
    _ type: R.Type, where predicate: RecordPredicate? = nil
  )
    throws(PersistenceError) -> Int
  {
    try reader.connection.count(type, where: predicate)
  }

  /// Runs raw SQL and returns its rows. Pass values as `arguments` (bound to `?`, `?1`, …),
  /// never inside `sql`.
  ///
  /// - Complexity: SQLite's, plus O(r·c) to copy r rows of c columns.
  public func rows(
    _ sql: String, _ arguments: [DatabaseValue] = []
  ) throws(PersistenceError) -> [Row] {
    try reader.connection.rows(sql, arguments)
  }

  /// The first column of the first row of `sql`, or `nil` when there is no row.
  ///
  /// - Complexity: SQLite's for the first row.
  public func scalar(
    _ sql: String, _ arguments: [DatabaseValue] = []
  ) throws(PersistenceError) -> DatabaseValue? {
    try reader.connection.scalar(sql, arguments)
  }
}
