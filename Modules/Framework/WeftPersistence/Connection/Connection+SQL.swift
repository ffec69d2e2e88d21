import CSQLite

/// Hand-written SQL (`SQL` literals), shared by `ReadContext` and `DatabaseTransaction`.
extension Connection {
  /// The prepared, bound statement for `sql`.
  private func started(_ sql: SQL, table: String? = nil) throws(PersistenceError) -> Statement {
    let (text, arguments) = try sql.checked(table: table)
    let statement = try cachedStatement(text, table: table)
    try start(statement, arguments, self.context(table: table, sql: text))
    return statement
  }

  /// Every row of `sql` decoded as `T`.
  ///
  /// - Complexity: SQLite's, plus O(k·f) to decode k rows of f columns.
  func fetchAll<T: Decodable>(_ type: T.Type, sql: SQL) throws(PersistenceError) -> [T] {
    try decodeAll(T.self, try started(sql))
  }

  /// The first row of `sql` decoded as `T`, or `nil`.
  ///
  /// - Complexity: SQLite's for the first row, plus O(f).
  func fetchOne<T: Decodable>(_ type: T.Type, sql: SQL) throws(PersistenceError) -> T? {
    let statement = try started(sql)
    defer { sqlite3_reset(statement.handle) }
    guard try step(statement, self.context(sql: statement.sql)) else { return nil }
    return try RowPlan(T.self, statement).decode(sql: statement.sql)
  }

  /// Every row of `sql` as a pair: `A` from the first columns (as many as `A`'s table has),
  /// `B` from the rest; with `optional`, `nil` for a `B` whose id column is NULL.
  ///
  /// - Complexity: SQLite's, plus O(k·f) to decode k rows of f columns.
  func fetchPairs<A: PersistableRecord, B: PersistableRecord>(
    _ a: A.Type, _ b: B.Type, sql: SQL
  ) throws(PersistenceError) -> [(A, B?)] {
    let split = try columnCount(of: A.tableName)
    let statement = try started(sql)
    defer { sqlite3_reset(statement.handle) }
    let total = statement.columnCount
    guard split < total else {
      throw PersistenceError.decodingFailed(
        table: A.tableName, id: nil, codingPath: "",
        detail:
          "the query returns \(total) columns, \"\(A.tableName)\" alone has \(split): select "
          + "\"\(A.tableName)\".*, \"\(B.tableName)\".*")
    }
    let context = self.context(table: A.tableName, sql: statement.sql)
    guard try step(statement, context) else { return [] }
    let first = RowPlan(A.self, statement, base: 0, count: split)
    let second = RowPlan(B.self, statement, base: split, count: total - split)
    var pairs: [(A, B?)] = []
    repeat {
      let left = try first.decode(sql: statement.sql)
      let right = second.isAbsent() ? nil : try second.decode(sql: statement.sql)
      pairs.append((left, right))
    } while try step(statement, context)
    return pairs
  }

  /// How many columns `table` has (`SELECT *`), from a cached statement.
  ///
  /// - Complexity: O(1) after the first call per table.
  func columnCount(of table: String) throws(PersistenceError) -> Int32 {
    try cachedStatement("SELECT * FROM " + SQLBuilder.quote(table), table: table).columnCount
  }

  /// Every row of `sql` as values by column name.
  ///
  /// - Complexity: SQLite's, plus O(r·c).
  func rows(sql: SQL) throws(PersistenceError) -> [Row] {
    let (text, arguments) = try sql.checked(table: nil)
    return try rows(text, arguments)
  }

  /// The first column of the first row of `sql`, or `nil`.
  ///
  /// - Complexity: SQLite's for the first row.
  func scalar(sql: SQL) throws(PersistenceError) -> DatabaseValue? {
    let (text, arguments) = try sql.checked(table: nil)
    return try scalar(text, arguments)
  }

  /// Runs `sql` to completion; returns the number of rows it changed.
  ///
  /// - Complexity: SQLite's.
  func execute(sql: SQL) throws(PersistenceError) -> Int {
    let (text, arguments) = try sql.checked(table: nil)
    let before = sqlite3_total_changes64(handle)
    try execute(text, arguments)
    return Int(sqlite3_total_changes64(handle) - before)
  }
}
