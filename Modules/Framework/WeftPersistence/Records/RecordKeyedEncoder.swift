/// The keyed container of `RecordEncoder`: one column per key.
///
/// Every primitive has its own overload (so the common fields never go through the generic
/// path), and every `encodeIfPresent` stores `nil` as NULL instead of skipping the key, so a
/// model always produces the same columns and reuses one cached statement.
struct RecordKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: RecordEncoder
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws { encoder.put(.null, forKey: key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    encoder.put(.integer(value ? 1 : 0), forKey: key)
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    encoder.put(.text(value), forKey: key)
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    encoder.put(.real(value), forKey: key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    encoder.put(.real(Double(value)), forKey: key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    encoder.put(.integer(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    encoder.put(.integer(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    encoder.put(.integer(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    encoder.put(.integer(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    encoder.put(.integer(value), forKey: key)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    encoder.put(try .checked(value, [key]), forKey: key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    encoder.put(.integer(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    encoder.put(.integer(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    encoder.put(.integer(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    encoder.put(try .checked(value, [key]), forKey: key)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    encoder.put(try ColumnValue.encode(value, codingPath: [key]), forKey: key)
  }

  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.fail(unsupported(key))
    return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: [key]))
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.fail(unsupported(key))
    return DiscardingUnkeyedContainer(codingPath: [key])
  }
  mutating func superEncoder() -> any Encoder {
    encoder.fail(unsupported(nil))
    return DiscardingEncoder(codingPath: [])
  }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    encoder.fail(unsupported(key))
    return DiscardingEncoder(codingPath: [key])
  }

  private func unsupported(_ key: Key?) -> EncodingError {
    EncodingError.invalidValue(
      key?.stringValue ?? "super",
      .init(
        codingPath: key.map { [$0] } ?? [],
        debugDescription:
          "nested containers inside a record's encode(to:) are not supported; encode a "
          + "nested Codable value for the key instead (it is stored as JSON)"))
  }
}
