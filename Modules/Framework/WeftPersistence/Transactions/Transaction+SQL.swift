/// Hand-written SQL that changes rows, with its interpolated values bound (see `SQL`); the
/// queries are `DatabaseReading`'s.
extension DatabaseTransaction {
  /// Runs `sql` (an UPDATE, DELETE, …) to completion; returns the number of rows changed.
  ///
  /// ```swift
  /// try tx.execute(sql: "UPDATE task SET done = 1 WHERE listId = \(list.id)")
  /// ```
  ///
  /// - Complexity: SQLite's; the statement is prepared once per distinct text.
  /// - Note: Isolation: runs on the writer connection, inside the transaction.
  @discardableResult
  public func execute(sql: SQL) throws(PersistenceError) -> Int { try connection.execute(sql: sql) }
}
