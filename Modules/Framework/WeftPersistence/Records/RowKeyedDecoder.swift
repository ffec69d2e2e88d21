/// The keyed container of `RowDecoder`: one column per key, read directly from SQLite.
///
/// `decodeIfPresent` treats a missing column and NULL alike (`nil`), so adding an optional
/// field to a model needs no migration to read old rows. Errors get the key put in front of
/// their coding path here, on the error path only.
struct RowKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let state: RowState
  var codingPath: [any CodingKey] { [] }

  /// The 0-based column index of `key`, or `nil` when the row has no such column.
  ///
  /// When `Key` is the one-byte type (an enum, as synthesized `CodingKeys` are) that owns
  /// the state's key table, each key's column is learnt the first time it is read, and
  /// later rows skip `stringValue` and the name comparison.
  @inline(__always)
  private func column(of key: Key) -> Int32? {
    guard MemoryLayout<Key>.size == 1, state.tableKeyType == ObjectIdentifier(Key.self) else {
      return state.index(of: key)
    }
    // A one-byte type holds no references and no padding: equal keys have equal bytes.
    let slot = state.columnByKeyByte + Int(unsafeBitCast(key, to: UInt8.self))
    let known = slot.pointee
    if known > 0 { return known - 1 }
    if known < 0 { return nil }
    let found = state.index(of: key)
    slot.pointee = found.map { $0 + 1 } ?? -1
    return found
  }

  var allKeys: [Key] { state.names.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { state.indexByName[key.stringValue] != nil }

  /// Reads `key`'s column with `body`; a missing column is `keyNotFound`.
  @inline(__always)
  private func read<T>(_ key: Key, _ body: (ColumnReader) throws -> T) throws -> T {
    guard let index = column(of: key) else {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: [key],
          debugDescription: "the row has no column \"\(key.stringValue)\"; add it in a migration"))
    }
    do {
      return try body(ColumnReader(handle: state.handle, index: state.base + index))
    } catch let error as DecodingError {
      throw error.prefixed(with: [key])
    }
  }

  /// Reads `key`'s column with `body`, or returns `nil` when it is missing or NULL.
  @inline(__always)
  private func readIfPresent<T>(_ key: Key, _ body: (ColumnReader) throws -> T) throws -> T? {
    guard let index = column(of: key) else { return nil }
    let reader = ColumnReader(handle: state.handle, index: state.base + index)
    if reader.isNull { return nil }
    do {
      return try body(reader)
    } catch let error as DecodingError {
      throw error.prefixed(with: [key])
    }
  }

  func decodeNil(forKey key: Key) throws -> Bool { try read(key) { $0.isNull } }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(key) { try $0.bool() } }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try read(key) { try $0.string() }
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try read(key) { try $0.double() }
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try read(key) { Float(try $0.double()) }
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try read(key) { try $0.integer() }
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try read(key) { try $0.integer() }
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try read(key) { try $0.integer() }
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try read(key) { try $0.integer() }
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try read(key) { try $0.integer() }
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try read(key) { try $0.integer() }
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try read(key) { try $0.integer() }
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try read(key) { try $0.integer() }
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try read(key) { try $0.integer() }
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try read(key) { try $0.integer() }
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try read(key) { try ColumnValue.decode(type, from: $0) }
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try readIfPresent(key) { try $0.bool() }
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try readIfPresent(key) { try $0.string() }
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try readIfPresent(key) { try $0.double() }
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try readIfPresent(key) { Float(try $0.double()) }
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try readIfPresent(key) { try $0.integer() }
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try readIfPresent(key) { try $0.integer() }
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try readIfPresent(key) { try $0.integer() }
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try readIfPresent(key) { try $0.integer() }
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try readIfPresent(key) { try $0.integer() }
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try readIfPresent(key) { try $0.integer() }
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try readIfPresent(key) { try $0.integer() }
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try readIfPresent(key) { try $0.integer() }
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try readIfPresent(key) { try $0.integer() }
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try readIfPresent(key) { try $0.integer() }
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try readIfPresent(key) { try ColumnValue.decode(type, from: $0) }
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  )
    throws -> KeyedDecodingContainer<NestedKey>
  {
    throw unsupported(key)
  }
  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw unsupported(key)
  }
  func superDecoder() throws -> any Decoder { throw unsupported(nil) }
  func superDecoder(forKey key: Key) throws -> any Decoder { throw unsupported(key) }

  private func unsupported(_ key: Key?) -> DecodingError {
    DecodingError.dataCorrupted(
      .init(
        codingPath: key.map { [$0] } ?? [],
        debugDescription:
          "nested containers inside a record's init(from:) are not supported; decode a "
          + "nested Decodable value for the key instead (it is read from JSON)"))
  }
}
