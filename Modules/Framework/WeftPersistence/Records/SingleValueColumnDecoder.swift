/// Decodes a field value that is not a plain scalar (a raw-value enum, a wrapper, an
/// optional) from one column. When the value asks for a keyed or unkeyed container it throws
/// `NeedsJSON`, and the caller decodes the column's JSON text instead.
struct SingleValueColumnDecoder: Decoder, SingleValueDecodingContainer {
  let reader: ColumnReader
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw NeedsJSON()
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsJSON() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { reader.isNull }
  func decode(_ type: Bool.Type) throws -> Bool { try reader.bool() }
  func decode(_ type: String.Type) throws -> String { try reader.string() }
  func decode(_ type: Double.Type) throws -> Double { try reader.double() }
  func decode(_ type: Float.Type) throws -> Float { Float(try reader.double()) }
  func decode(_ type: Int.Type) throws -> Int { try reader.integer() }
  func decode(_ type: Int8.Type) throws -> Int8 { try reader.integer() }
  func decode(_ type: Int16.Type) throws -> Int16 { try reader.integer() }
  func decode(_ type: Int32.Type) throws -> Int32 { try reader.integer() }
  func decode(_ type: Int64.Type) throws -> Int64 { try reader.integer() }
  func decode(_ type: UInt.Type) throws -> UInt { try reader.integer() }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try reader.integer() }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try reader.integer() }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try reader.integer() }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try reader.integer() }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try ColumnValue.decode(type, from: reader)
  }
}
