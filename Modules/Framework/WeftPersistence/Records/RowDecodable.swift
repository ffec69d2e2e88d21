/// The fast decoding path: a type reads its fields from the row's columns by position, with
/// no `Decoder`, no coding keys and no name lookups — what a hand-written `init(row:)` does.
///
/// ```swift
/// struct Metric: PersistableRecord, RowDecodable {
///   static let tableName = "metric"
///   var id: Int
///   var kind: String
///   var value: Double
///   var note: String?
///
///   init(columns: RowColumns) throws {   // the table's column order (`SELECT *`)
///     id = try columns[0]
///     kind = try columns[1]
///     value = try columns[2]
///     note = try columns[3]
///   }
/// }
/// ```
///
/// Every fetch of the type (`fetchAll`, `fetch(_:id:)`, `fetchAll(_:sql:)`, a join's side)
/// uses it instead of `init(from:)`; `Encodable` still writes the record. Positions are the
/// statement's result columns: for the library's own fetches (`SELECT *`) the table's
/// column order as created by the migrations, with a column added by `ALTER TABLE` last.
/// The storage-class checks are the Codable path's (see `PersistableRecord`): a mismatch is
/// `PersistenceError.decodingFailed` naming the column.
///
/// - Complexity: O(f) per row, f = columns read.
/// - Note: Isolation: `init(columns:)` runs on the connection reading the rows.
public protocol RowDecodable {
  /// Makes a value from the current row. Read `columns` only inside this initializer.
  init(columns: RowColumns) throws

  /// Decodes the cursor's current row and every row after it. Provided: do not implement
  /// it. The provided version is inlinable, so the compiler specializes this loop for the
  /// adopting type in its own module (no generic calls per row).
  ///
  /// - Complexity: O(k·f), k = rows, f = columns read.
  static func _decodeAll(from cursor: RowCursor) throws -> [Self]
}

extension RowDecodable {
  /// The provided loop: one `init(columns:)` per row, into an array.
  ///
  /// - Complexity: O(k·f), k = rows, f = columns read.
  @inlinable
  public static func _decodeAll(from cursor: RowCursor) throws -> [Self] {
    var values: [Self] = []
    repeat {
      values.append(try Self(columns: cursor.columns))
    } while try cursor.next()
    return values
  }
}
