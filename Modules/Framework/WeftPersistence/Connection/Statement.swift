import CSQLite

/// SQLite's `SQLITE_TRANSIENT`: tells `sqlite3_bind_*` to copy the bytes before returning.
/// (The C macro is a cast of -1 to a function pointer, which Swift does not import.)
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement, owned by one `Connection` and used only from its owner's isolation.
///
/// It remembers which tables it reads and writes (collected by the connection's authorizer
/// while it was compiled), so a transaction knows which observations to wake without
/// parsing SQL.
///
/// - Note: Isolation: not `Sendable`; confined to the connection that prepared it.
/// - Note: Allocations: none to bind or step, except text and blob copies made by SQLite.
final class Statement {
  let handle: OpaquePointer
  let sql: String
  /// Tables this statement reads (lowercased), for observation regions.
  let readTables: Set<String>
  /// Tables this statement inserts into, updates, deletes from, creates, alters or drops.
  let writtenTables: Set<String>
  /// Whether the statement only reads (`sqlite3_stmt_readonly`).
  let isReadOnly: Bool
  /// Whether the statement changes the schema (CREATE, DROP, ALTER).
  let changesSchema: Bool
  /// Whether the statement begins or ends a transaction or savepoint.
  let controlsTransaction: Bool
  private var cachedLayout: ColumnLayout?
  private var layoutReprepareCount: Int32 = 0
  private var cachedDecoder: RowDecoder?
  /// Decoders of column slices (a join's records), by first column and count.
  private var sliceDecoders: [Int64: RowDecoder] = [:]

  init(handle: OpaquePointer, sql: String, collected: AuthorizerCollector) {
    self.handle = handle
    self.sql = sql
    self.readTables = collected.reads
    self.writtenTables = collected.writes
    self.isReadOnly = sqlite3_stmt_readonly(handle) != 0
    self.changesSchema = collected.changesSchema
    self.controlsTransaction = collected.controlsTransaction
  }

  deinit { sqlite3_finalize(handle) }

  /// Number of result columns.
  var columnCount: Int32 { sqlite3_column_count(handle) }

  /// The result column names, in order, with a name index; computed once, and again after
  /// SQLite re-prepares the statement (a schema change can add or rename columns).
  ///
  /// - Complexity: O(c) the first time, c = columns; O(1) afterwards.
  var columnLayout: ColumnLayout {
    let reprepared = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
    if let cachedLayout, reprepared == layoutReprepareCount { return cachedLayout }
    layoutReprepareCount = reprepared
    let names = (0..<columnCount).map { String(cString: sqlite3_column_name(handle, $0)) }
    let layout = ColumnLayout(names: names)
    cachedLayout = layout
    return layout
  }

  /// The record decoder for this statement's rows, kept across executions while the column
  /// layout stays the same, so its keyed container and key-to-column table are made once.
  /// Rows are decoded one at a time on the owning connection, so one decoder suffices.
  var rowDecoder: RowDecoder {
    let layout = columnLayout
    if let cachedDecoder, cachedDecoder.layout === layout { return cachedDecoder }
    let decoder = RowDecoder(statement: self, layout: layout)
    cachedDecoder = decoder
    return decoder
  }

  /// The record decoder for the `count` result columns starting at `base` (one side of a
  /// join), kept like `rowDecoder`.
  ///
  /// - Complexity: O(count) the first time; O(1) afterwards.
  func rowDecoder(base: Int32, count: Int32) -> RowDecoder {
    if base == 0, count == columnCount { return rowDecoder }
    let layout = columnLayout
    let key = Int64(base) << 32 | Int64(count)
    if let cached = sliceDecoders[key], cached.sourceLayout === layout { return cached }
    let names = Array(layout.names[Int(base)..<Int(base + count)])
    let decoder = RowDecoder(statement: self, layout: ColumnLayout(names: names), base: base)
    decoder.sourceLayout = layout
    sliceDecoders[key] = decoder
    return decoder
  }

  /// The result column names, in order.
  var columnNames: [String] { columnLayout.names }

  /// Binds `value` to the 1-based parameter `index`; returns SQLite's result code.
  @inline(__always)
  func bind(_ value: DatabaseValue, at index: Int32) -> Int32 {
    switch value {
    case .null: sqlite3_bind_null(handle, index)
    case .integer(let integer): sqlite3_bind_int64(handle, index, integer)
    case .real(let real): sqlite3_bind_double(handle, index, real)
    case .text(let text): bind(text: text, at: index)
    case .blob(let bytes): bind(blob: bytes, at: index)
    }
  }

  /// Binds UTF-8 text without an intermediate copy (SQLite copies it).
  @inline(__always)
  func bind(text: String, at index: Int32) -> Int32 {
    var text = text
    return text.withUTF8 { buffer in
      // An empty buffer may have a nil base address, which SQLite would bind as NULL.
      guard let base = buffer.baseAddress, buffer.count > 0 else {
        return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
      }
      return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
        sqlite3_bind_text(handle, index, $0, Int32(buffer.count), sqliteTransient)
      }
    }
  }

  /// Binds bytes as a blob (SQLite copies them).
  func bind(blob: [UInt8], at index: Int32) -> Int32 {
    blob.withUnsafeBytes { buffer in
      sqlite3_bind_blob(
        handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
        sqliteTransient)
    }
  }

  /// The value of result column `index` (0-based) in the current row.
  func value(at index: Int32) -> DatabaseValue { Column.value(handle, index) }

  /// The text of result column `index` in the current row (decoded as UTF-8).
  func text(at index: Int32) -> String { Column.text(handle, index) }

  /// The bytes of result column `index` in the current row.
  func blob(at index: Int32) -> [UInt8] { Column.blob(handle, index) }
}

/// Reading result columns straight from a statement handle (no retain of the `Statement`).
enum Column {
  @inline(__always)
  static func value(_ handle: OpaquePointer, _ index: Int32) -> DatabaseValue {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, index))
    case SQLITE_FLOAT: .real(sqlite3_column_double(handle, index))
    case SQLITE_TEXT: .text(text(handle, index))
    case SQLITE_BLOB: .blob(blob(handle, index))
    default: .null
    }
  }

  @inline(__always)
  static func text(_ handle: OpaquePointer, _ index: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  static func blob(_ handle: OpaquePointer, _ index: Int32) -> [UInt8] {
    let count = Int(sqlite3_column_bytes(handle, index))
    guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }
}
