/// What can read: a read's `ReadContext` and a write's `DatabaseTransaction` (through its
/// `reader`, the same connection). Record fetches, counts, raw rows and hand-written SQL
/// queries are written once, for both.
///
/// - Note: Isolation: a context is confined to its read or write closure (not `Sendable`).
/// - Complexity: O(1) to get the context.
public protocol DatabaseReading {
  /// The read context on this context's connection.
  var reader: ReadContext { get }
}

extension ReadContext: DatabaseReading {
  /// This context itself.
  public var reader: ReadContext { self }
}

extension DatabaseTransaction: DatabaseReading {}

/// Hand-written SQL whose interpolated values are bound, never spliced (see `SQL`).
extension DatabaseReading {
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
  /// - Note: Isolation: runs on the connection of the enclosing `read` or `write`.
  public func fetchAll<T: Decodable>(_ type: T.Type, sql: SQL) throws(PersistenceError) -> [T] {
    try reader.connection.fetchAll(type, sql: sql)
  }

  /// The first row of `sql` decoded as `T`, or `nil` when there is none.
  ///
  /// - Complexity: SQLite's for the first row, plus O(f).
  /// - Note: Isolation: runs on the connection of the enclosing `read` or `write`.
  public func fetchOne<T: Decodable>(_ type: T.Type, sql: SQL) throws(PersistenceError) -> T? {
    try reader.connection.fetchOne(type, sql: sql)
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
  /// - Note: Isolation: runs on the connection of the enclosing `read` or `write`.
  public func fetchAll<A: PersistableRecord, B: PersistableRecord>(
    _ first: A.Type, _ second: B.Type, sql: SQL
  ) throws(PersistenceError) -> [(A, B)] {
    try reader.connection.fetchPairs(first, second, sql: sql).map {
      pair throws(PersistenceError) in
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
  /// - Note: Isolation: runs on the connection of the enclosing `read` or `write`.
  public func fetchAll<A: PersistableRecord, B: PersistableRecord>(
    _ first: A.Type, optional second: B.Type, sql: SQL
  ) throws(PersistenceError) -> [(A, B?)] {
    try reader.connection.fetchPairs(first, second, sql: sql)
  }

  /// Every row of `sql` as values by column name.
  ///
  /// - Complexity: SQLite's, plus O(r·c) to copy r rows of c columns.
  /// - Note: Isolation: runs on the connection of the enclosing `read` or `write`.
  public func rows(sql: SQL) throws(PersistenceError) -> [Row] {
    try reader.connection.rows(sql: sql)
  }

  /// The first column of the first row of `sql`, or `nil` when there is no row.
  ///
  /// - Complexity: SQLite's for the first row.
  /// - Note: Isolation: runs on the connection of the enclosing `read` or `write`.
  public func scalar(sql: SQL) throws(PersistenceError) -> DatabaseValue? {
    try reader.connection.scalar(sql: sql)
  }
}
