/// The keyed container of `RowDecoder`: one column per key, read directly from SQLite.
///
/// `decodeIfPresent` treats a missing column and NULL alike (`nil`), so adding an optional
/// field to a model needs no migration to read old rows.
struct RowKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: RowDecoder
  var codingPath: [any CodingKey] { [] }

  var allKeys: [Key] { decoder.layout.names.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { decoder.layout.indexByName[key.stringValue] != nil }

  @inline(__always)
  private func reader(_ key: Key) throws -> ColumnReader {
    guard let index = decoder.index(of: key) else {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: [key],
          debugDescription: "the row has no column \"\(key.stringValue)\"; add it in a migration"))
    }
    return ColumnReader(statement: decoder.statement, index: index, codingPath: [key])
  }

  /// The reader for `key`, or `nil` when the column is missing or NULL.
  @inline(__always)
  private func presentReader(_ key: Key) -> ColumnReader? {
    guard let index = decoder.index(of: key) else { return nil }
    let reader = ColumnReader(statement: decoder.statement, index: index, codingPath: [key])
    return reader.isNull ? nil : reader
  }

  func decodeNil(forKey key: Key) throws -> Bool { try reader(key).isNull }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader(key).bool() }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader(key).string() }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader(key).double() }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    Float(try reader(key).double())
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader(key).integer() }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reader(key).integer() }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try reader(key).integer() }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try reader(key).integer() }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try reader(key).integer() }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reader(key).integer() }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try reader(key).integer() }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try reader(key).integer()
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try reader(key).integer()
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try reader(key).integer()
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let reader = try reader(key)
    return try ColumnValue.decode(type, from: reader.statement, at: reader.index, codingPath: [key])
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try presentReader(key)?.bool()
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try presentReader(key)?.string()
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try presentReader(key)?.double()
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try presentReader(key).map { Float(try $0.double()) }
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try presentReader(key)?.integer()
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try presentReader(key)?.integer()
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try presentReader(key)?.integer()
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try presentReader(key)?.integer()
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try presentReader(key)?.integer()
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try presentReader(key)?.integer()
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try presentReader(key)?.integer()
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try presentReader(key)?.integer()
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try presentReader(key)?.integer()
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try presentReader(key)?.integer()
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let reader = presentReader(key) else { return nil }
    return try ColumnValue.decode(type, from: reader.statement, at: reader.index, codingPath: [key])
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
