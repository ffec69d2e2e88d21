import CSQLite

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
    } catch {
      // Any error, not `as DecodingError`: a typed catch here made every column read look
      // up `DecodingError`'s metadata, error or not.
      throw prefixing(error, index)
    }
  }

  /// `error` with column `index`'s name in front of its coding path when it is a
  /// `DecodingError`, else `error` itself. Out of line: the error path only.
  @inline(never)
  private func prefixing(_ error: any Error, _ index: Int) -> any Error {
    guard let error = error as? DecodingError else { return error }
    return error.prefixed(with: [ColumnKey(name: name(of: index))])
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
