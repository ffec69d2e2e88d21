/// Hand-written SQL whose interpolated values are bound, never spliced (see `SQL`).
extension DatabaseTransaction {
  /// Every row of `sql` decoded as `T` (columns by name through `Decodable`, or by position
  /// when `T` adopts `RowDecodable`). `T` need not be a record: any `Decodable` whose
  /// fields match the result columns.
  ///
  /// ```swift
  /// let adults = try db.fetchAll(Person.self, sql: "SELECT * FROM person WHERE age >= \(18)")
  /// ```
  ///
  /// - Throws: `PersistenceError` when the SQL fails, a value cannot be encoded, or a row
  ///   does not decode.
  /// - Complexity: SQLite's, plus O(k·f) to decode k rows of f columns; the statement is
  ///   prepared once per distinct text and cached.
  /// - Note: Isolation: runs on the writer connection, inside the transaction.
  public func fetchAll<T: Decodable>(_ type: T.Type, sql: SQL) throws -> [T] {
    try connection.fetchAll(type, sql: sql)
  }

  /// The first row of `sql` decoded as `T`, or `nil` when there is none.
  ///
  /// - Complexity: SQLite's for the first row, plus O(f).
  /// - Note: Isolation: runs on the writer connection, inside the transaction.
  public func fetchOne<T: Decodable>(_ type: T.Type, sql: SQL) throws -> T? {
    try connection.fetchOne(type, sql: sql)
  }

  /// A join decoded into pairs: `A` from the row's first columns (as many as `A`'s table
  /// has), `B` from the rest. Select `"a".*, "b".*` in that order.
  ///
  /// ```swift
  /// let pairs = try db.fetchAll(
  ///   Book.self, Author.self,
  ///   sql: "SELECT book.*, author.* FROM book JOIN author ON author.id = book.authorId")
  /// ```
  ///
  /// - Throws: `PersistenceError.decodingFailed` when a row has no columns for `B`, or when
  ///   `B`'s columns are NULL (use `fetchAll(_:optional:sql:)` for a LEFT JOIN).
  /// - Complexity: SQLite's, plus O(k·f) to decode k rows of f columns.
  /// - Note: Isolation: runs on the writer connection, inside the transaction.
  public func fetchAll<A: PersistableRecord, B: PersistableRecord>(
    _ first: A.Type, _ second: B.Type, sql: SQL
  ) throws -> [(A, B)] {
    try connection.fetchPairs(first, second, sql: sql).map { pair in
      guard let right = pair.1 else {
        throw PersistenceError.decodingFailed(
          table: B.tableName, id: nil, codingPath: B.idColumn,
          detail: "the joined row is missing (its id is NULL); fetch B as optional")
      }
      return (pair.0, right)
    }
  }

  /// A LEFT JOIN decoded into pairs: as `fetchAll(_:_:sql:)`, with `nil` for a `B` whose id
  /// column is NULL.
  ///
  /// - Complexity: SQLite's, plus O(k·f) to decode k rows of f columns.
  /// - Note: Isolation: runs on the writer connection, inside the transaction.
  public func fetchAll<A: PersistableRecord, B: PersistableRecord>(
    _ first: A.Type, optional second: B.Type, sql: SQL
  ) throws -> [(A, B?)] {
    try connection.fetchPairs(first, second, sql: sql)
  }

  /// Every row of `sql` as values by column name.
  ///
  /// - Complexity: SQLite's, plus O(r·c) to copy r rows of c columns.
  /// - Note: Isolation: runs on the writer connection, inside the transaction.
  public func rows(sql: SQL) throws -> [Row] { try connection.rows(sql: sql) }

  /// The first column of the first row of `sql`, or `nil` when there is no row.
  ///
  /// - Complexity: SQLite's for the first row.
  /// - Note: Isolation: runs on the writer connection, inside the transaction.
  public func scalar(sql: SQL) throws -> DatabaseValue? { try connection.scalar(sql: sql) }

  /// Runs `sql` (an UPDATE, DELETE, …) to completion; returns the number of rows changed.
  ///
  /// ```swift
  /// try tx.execute(sql: "UPDATE task SET done = 1 WHERE listId = \(list.id)")
  /// ```
  ///
  /// - Complexity: SQLite's; the statement is prepared once per distinct text.
  /// - Note: Isolation: runs on the writer connection, inside the transaction.
  @discardableResult
  public func execute(sql: SQL) throws -> Int { try connection.execute(sql: sql) }
}
