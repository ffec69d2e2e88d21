import CSQLite

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

/// A statement positioned on a row, stepped by `RowDecodable._decodeAll(from:)`. An
/// implementation detail of the fast path.
///
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
  func next() throws -> Bool {
    try connection.step(statement, connection.context(sql: statement.sql))
  }
}

/// The current row of a fetch, read by column position (0-based).
///
/// Subscripts read `Int`, `Int64`, `Int32`, `Double`, `Bool`, `String` and `[UInt8]`, and
/// their optionals (NULL is `nil`); the generic subscript reads any other `Decodable` (a
/// `Date`, `UUID`, raw-value enum or JSON value) as a record field is read.
///
/// - Complexity: each read is O(1) plus copying text or bytes.
/// - Note: Isolation: not `Sendable`; valid only during the `init(columns:)` that got it.
public struct RowColumns {
  let handle: OpaquePointer
  /// The first column of this value's slice of the row (a join's second record starts
  /// after the first one's columns).
  let base: Int32
  /// The number of columns in the slice.
  public let count: Int

  init(handle: OpaquePointer, base: Int32, count: Int) {
    self.handle = handle
    self.base = base
    self.count = count
  }

  /// Reads column `index` with `body`; out-of-range and type errors name the column.
  @inline(__always)
  private func read<T>(_ index: Int, _ body: (ColumnReader) throws -> T) throws -> T {
    guard index >= 0, index < count else { throw outOfRange(index) }
    do {
      return try body(ColumnReader(handle: handle, index: base + Int32(index)))
    } catch let error as DecodingError {
      throw error.prefixed(with: [ColumnKey(name: name(of: index))])
    }
  }

  @inline(__always)
  private func readIfPresent<T>(_ index: Int, _ body: (ColumnReader) throws -> T) throws -> T? {
    try read(index) { reader in reader.isNull ? nil : try body(reader) }
  }

  /// The name of column `index` (as the statement reports it).
  ///
  /// - Complexity: O(n) in the name.
  public func name(of index: Int) -> String {
    guard index >= 0, index < count,
      let name = sqlite3_column_name(handle, base + Int32(index))
    else { return "#\(index)" }
    return String(cString: name)
  }

  private func outOfRange(_ index: Int) -> DecodingError {
    DecodingError.keyNotFound(
      ColumnKey(name: "#\(index)"),
      .init(
        codingPath: [],
        debugDescription: "the row has \(count) columns; there is no column at position \(index)"
      ))
  }

  /// Column `index` as an `Int`.
  public subscript(_ index: Int) -> Int { get throws { try read(index) { try $0.integer() } } }
  /// Column `index` as an `Int64`.
  public subscript(_ index: Int) -> Int64 { get throws { try read(index) { try $0.integer() } } }
  /// Column `index` as an `Int32`.
  public subscript(_ index: Int) -> Int32 { get throws { try read(index) { try $0.integer() } } }
  /// Column `index` as a `Double`.
  public subscript(_ index: Int) -> Double { get throws { try read(index) { try $0.double() } } }
  /// Column `index` as a `Bool` (INTEGER 0 or 1).
  public subscript(_ index: Int) -> Bool { get throws { try read(index) { try $0.bool() } } }
  /// Column `index` as a `String` (TEXT).
  public subscript(_ index: Int) -> String { get throws { try read(index) { try $0.string() } } }
  /// Column `index` as bytes (BLOB).
  public subscript(_ index: Int) -> [UInt8] { get throws { try read(index) { try $0.bytes() } } }
  /// Column `index` as any other `Decodable`, read as a record field of that type is.
  public subscript<T: Decodable>(_ index: Int) -> T {
    get throws { try read(index) { try ColumnValue.decode(T.self, from: $0) } }
  }

  /// Column `index` as an `Int`, or `nil` for NULL.
  public subscript(_ index: Int) -> Int? {
    get throws { try readIfPresent(index) { try $0.integer() } }
  }
  /// Column `index` as an `Int64`, or `nil` for NULL.
  public subscript(_ index: Int) -> Int64? {
    get throws { try readIfPresent(index) { try $0.integer() } }
  }
  /// Column `index` as a `Double`, or `nil` for NULL.
  public subscript(_ index: Int) -> Double? {
    get throws { try readIfPresent(index) { try $0.double() } }
  }
  /// Column `index` as a `Bool`, or `nil` for NULL.
  public subscript(_ index: Int) -> Bool? {
    get throws { try readIfPresent(index) { try $0.bool() } }
  }
  /// Column `index` as a `String`, or `nil` for NULL.
  public subscript(_ index: Int) -> String? {
    get throws { try readIfPresent(index) { try $0.string() } }
  }
  /// Column `index` as any other `Decodable`, or `nil` for NULL.
  public subscript<T: Decodable>(_ index: Int) -> T? {
    get throws { try readIfPresent(index) { try ColumnValue.decode(T.self, from: $0) } }
  }

  /// Whether column `index` is NULL (or out of range).
  ///
  /// - Complexity: O(1).
  public func isNull(_ index: Int) -> Bool {
    guard index >= 0, index < count else { return true }
    return ColumnReader(handle: handle, index: base + Int32(index)).isNull
  }
}

/// A column name as a coding key, for error paths.
struct ColumnKey: CodingKey {
  let name: String
  init(name: String) { self.name = name }
  init?(stringValue: String) { name = stringValue }
  init?(intValue: Int) { nil }
  var stringValue: String { name }
  var intValue: Int? { nil }
}
