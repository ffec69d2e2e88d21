/// How one fetch turns a statement's rows (or one slice of their columns) into `T`, decided
/// once per fetch: `T`'s `init(columns:)` when it adopts `RowDecodable`, otherwise its
/// `init(from:)` through the statement's cached `RowDecoder`, whose key-to-column table is
/// learnt on the first row and kept with the statement (so each row reads columns by
/// index, with no name lookups and no containers made).
///
/// - Note: Isolation: not `Sendable`; a local of one fetch on the connection's owner.
struct RowPlan<T: Decodable> {
  private let make: ((RowColumns) throws -> T)?
  private let decoder: RowDecoder?
  private let columns: RowColumns
  /// For errors: the table and id column when `T` is a record.
  private let table: String?
  private let idColumn: String?

  /// The plan for the `count` columns starting at `base` (all of them by default).
  init(_ type: T.Type, _ statement: Statement, base: Int32 = 0, count: Int32? = nil) {
    let count = count ?? (statement.columnCount - base)
    columns = RowColumns(handle: statement.handle, base: base, count: Int(count))
    if let fast = T.self as? any RowDecodable.Type {
      make = Self.maker(fast)
      decoder = nil
    } else {
      make = nil
      decoder = statement.rowDecoder(base: base, count: count)
    }
    let record = T.self as? any PersistableRecord.Type
    table = record?.tableName
    idColumn = record?.idColumn
  }

  /// `F.init(columns:)` as a function returning `T` (`F` is `T`, opened from the
  /// existential): cast once per fetch, not once per row.
  private static func maker<F: RowDecodable>(_ type: F.Type) -> (RowColumns) throws -> T {
    let make: (RowColumns) throws -> F = { try F(columns: $0) }
    return make as! (RowColumns) throws -> T
  }

  /// Decodes the current row.
  ///
  /// - Throws: `PersistenceError.decodingFailed` with the table (or `sql`) and the row's id.
  @inline(__always)
  func decode(sql: @autoclosure () -> String) throws(PersistenceError) -> T {
    do {
      if let make { return try make(columns) }
      let decoder = decoder.unsafelyUnwrapped
      decoder.startRow()
      return try T(from: decoder)
    } catch {
      throw wrap(error, sql: sql())
    }
  }

  /// `error`, thrown while decoding the current row, as a `PersistenceError` naming the
  /// table (or `sql`) and the row's id.
  func wrap(_ error: any Error, sql: String) -> PersistenceError {
    PersistenceError(decoding: error, table: table ?? sql, id: idText())
  }

  /// Whether the slice's id column (or, for a non-record, every column) is NULL: the
  /// missing side of a LEFT JOIN.
  func isAbsent() -> Bool {
    if let idColumn, let index = columnIndex(idColumn) { return columns.isNull(index) }
    return (0..<columns.count).allSatisfy(columns.isNull)
  }

  private func columnIndex(_ name: String) -> Int? {
    (0..<columns.count).first { columns.name(of: $0) == name }
  }

  /// The row's id as text, for an error message.
  private func idText() -> String? {
    guard let idColumn, let index = columnIndex(idColumn) else { return nil }
    switch Column.value(columns.handle, columns.base + Int32(index)) {
    case .integer(let integer): return String(integer)
    case .real(let real): return String(real)
    case .text(let text): return text
    case .blob, .null: return nil
    }
  }
}
