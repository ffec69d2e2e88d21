import CSQLite

/// Reads one column of the current row as a Swift scalar, checking its storage class.
///
/// Integers accept INTEGER, or REAL holding an exact integer; floating point accepts
/// INTEGER or REAL; `Bool` accepts INTEGER 0 or 1; `String` accepts TEXT only. NULL is
/// `valueNotFound`. SQLite's silent conversions (text to 0) are refused on purpose: a model
/// that does not match its column is a bug to report, not a value to invent.
///
/// Errors carry an empty coding path; the keyed container that made the reader puts the
/// field's key in front (`DecodingError.prefixed(with:)`) on the error path only, so reading
/// a field retains and allocates nothing.
///
/// The column is fetched once (`sqlite3_column_value`) and read with `sqlite3_value_*`,
/// which skips the statement lookup and error bookkeeping every `sqlite3_column_*` call
/// repeats. SQLite calls that value "unprotected": not guarded by the connection's mutex,
/// which is fine here because connections are opened `SQLITE_OPEN_NOMUTEX` and used by one
/// owner at a time, and the value is read before the statement steps again.
struct ColumnReader {
  let handle: OpaquePointer
  let index: Int32
  let value: OpaquePointer

  @inline(__always)
  init(handle: OpaquePointer, index: Int32) {
    self.handle = handle
    self.index = index
    // Never nil for a valid statement and index (SQLite returns a NULL value otherwise).
    self.value = sqlite3_column_value(handle, index)
  }

  var storageClass: Int32 { sqlite3_value_type(value) }
  var isNull: Bool { storageClass == SQLITE_NULL }

  @inline(__always)
  func integer<T: FixedWidthInteger>(_ type: T.Type = T.self) throws -> T {
    let stored: Int64
    switch storageClass {
    case SQLITE_INTEGER:
      stored = sqlite3_value_int64(value)
    case SQLITE_FLOAT:
      let real = sqlite3_value_double(value)
      guard let exact = Int64(exactly: real) else {
        throw mismatch(T.self, "the column holds the real \(real)")
      }
      stored = exact
    default:
      throw unexpected(T.self)
    }
    guard let value = T(exactly: stored) else {
      throw mismatch(T.self, "\(stored) does not fit in \(T.self)")
    }
    return value
  }

  @inline(__always)
  func double() throws -> Double {
    switch storageClass {
    case SQLITE_FLOAT, SQLITE_INTEGER: return sqlite3_value_double(value)
    default: throw unexpected(Double.self)
    }
  }

  func bool() throws -> Bool {
    switch try integer(Int64.self) {
    case 0: return false
    case 1: return true
    case let other: throw mismatch(Bool.self, "the column holds \(other), not 0 or 1")
    }
  }

  @inline(__always)
  func string() throws -> String {
    guard storageClass == SQLITE_TEXT else { throw unexpected(String.self) }
    guard let pointer = sqlite3_value_text(value) else { return "" }
    let count = Int(sqlite3_value_bytes(value))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  func bytes() throws -> [UInt8] {
    switch storageClass {
    case SQLITE_BLOB: return Column.blob(handle, index)
    default: throw unexpected([UInt8].self)
    }
  }

  /// The bytes of a JSON column (TEXT or BLOB).
  func jsonBytes() throws -> [UInt8] {
    switch storageClass {
    case SQLITE_TEXT: return Array(Column.text(handle, index).utf8)
    case SQLITE_BLOB: return Column.blob(handle, index)
    default: throw mismatch(String.self, "expected JSON text, found \(storageName)")
    }
  }

  var storageName: String {
    switch storageClass {
    case SQLITE_INTEGER: "INTEGER \(sqlite3_column_int64(handle, index))"
    case SQLITE_FLOAT: "REAL \(sqlite3_column_double(handle, index))"
    case SQLITE_TEXT: "TEXT '\(Column.text(handle, index).prefix(40))'"
    case SQLITE_BLOB: "BLOB"
    default: "NULL"
    }
  }

  private func unexpected(_ type: Any.Type) -> DecodingError {
    if isNull {
      return DecodingError.valueNotFound(
        type,
        .init(codingPath: [], debugDescription: "expected \(type), found NULL"))
    }
    return mismatch(type, "expected \(type), found \(storageName)")
  }

  func mismatch(_ type: Any.Type, _ description: String) -> DecodingError {
    DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: description))
  }
}
