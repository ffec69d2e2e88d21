/// A statement positioned on a row, stepped by `RowDecodable._decodeAll(from:)`. An
/// implementation detail of the fast path.
///
/// - Complexity: stepping is SQLite's step, O(1) besides.
/// - Note: Isolation: not `Sendable`; valid only during the fetch that made it.
public struct RowCursor {
  @usableFromInline let columns: RowColumns
  let connection: Connection
  let statement: Statement

  init(connection: Connection, statement: Statement) {
    self.connection = connection
    self.statement = statement
    self.columns = RowColumns(
      handle: statement.handle, base: 0, count: Int(statement.columnCount))
  }

  /// Steps to the next row: `true` when there is one.
  @usableFromInline
  func next() throws(PersistenceError) -> Bool {
    try connection.stepAgain(statement, connection.context(sql: statement.sql))
  }
}
