/// Containers that accept and drop everything. They let an encoder carry on after it has
/// noted that a value cannot be stored as one column (or that a record used an unsupported
/// container); the caller then takes the JSON path or reports the error.
struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  var codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws {}
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: codingPath + [key]))
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    DiscardingUnkeyedContainer(codingPath: codingPath + [key])
  }
  mutating func superEncoder() -> any Encoder { DiscardingEncoder(codingPath: codingPath) }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    DiscardingEncoder(codingPath: codingPath + [key])
  }
}

struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer {
  var codingPath: [any CodingKey]
  var count = 0

  mutating func encodeNil() throws { count += 1 }
  mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  )
    -> KeyedEncodingContainer<NestedKey>
  {
    count += 1
    return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: codingPath))
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    count += 1
    return DiscardingUnkeyedContainer(codingPath: codingPath)
  }
  mutating func superEncoder() -> any Encoder { DiscardingEncoder(codingPath: codingPath) }
}

struct DiscardingSingleValueContainer: SingleValueEncodingContainer {
  var codingPath: [any CodingKey]

  mutating func encodeNil() throws {}
  mutating func encode<T: Encodable>(_ value: T) throws {}
}

struct DiscardingEncoder: Encoder {
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(DiscardingKeyedContainer<Key>(codingPath: codingPath))
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    DiscardingUnkeyedContainer(codingPath: codingPath)
  }
  func singleValueContainer() -> any SingleValueEncodingContainer {
    DiscardingSingleValueContainer(codingPath: codingPath)
  }
}
