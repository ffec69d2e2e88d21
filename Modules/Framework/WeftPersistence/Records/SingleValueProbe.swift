/// An encoder that captures a value encoded through a single-value container (a number, a
/// string, a raw-value enum, a wrapper) and notices when the value needs a keyed or unkeyed
/// container instead — then the caller stores it as JSON.
///
/// - Note: Isolation: not `Sendable`; made and used within one call.
final class SingleValueProbe: Encoder {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  var captured: DatabaseValue?
  var needsJSON = false

  init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    needsJSON = true
    return KeyedEncodingContainer(DiscardingKeyedContainer<Key>(codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    needsJSON = true
    return DiscardingUnkeyedContainer(codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { ProbeContainer(probe: self) }
}

private struct ProbeContainer: SingleValueEncodingContainer {
  let probe: SingleValueProbe
  var codingPath: [any CodingKey] { probe.codingPath }

  mutating func encodeNil() throws { probe.captured = .null }
  mutating func encode(_ value: Bool) throws { probe.captured = .integer(value ? 1 : 0) }
  mutating func encode(_ value: String) throws { probe.captured = .text(value) }
  mutating func encode(_ value: Double) throws { probe.captured = .real(value) }
  mutating func encode(_ value: Float) throws { probe.captured = .real(Double(value)) }
  mutating func encode(_ value: Int) throws { probe.captured = .integer(Int64(value)) }
  mutating func encode(_ value: Int8) throws { probe.captured = .integer(Int64(value)) }
  mutating func encode(_ value: Int16) throws { probe.captured = .integer(Int64(value)) }
  mutating func encode(_ value: Int32) throws { probe.captured = .integer(Int64(value)) }
  mutating func encode(_ value: Int64) throws { probe.captured = .integer(value) }
  mutating func encode(_ value: UInt) throws { probe.captured = try .checked(value, codingPath) }
  mutating func encode(_ value: UInt8) throws { probe.captured = .integer(Int64(value)) }
  mutating func encode(_ value: UInt16) throws { probe.captured = .integer(Int64(value)) }
  mutating func encode(_ value: UInt32) throws { probe.captured = .integer(Int64(value)) }
  mutating func encode(_ value: UInt64) throws { probe.captured = try .checked(value, codingPath) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let inner = try ColumnValue.encode(value, codingPath: codingPath)
    probe.captured = inner
  }
}

extension DatabaseValue {
  /// An unsigned integer as INTEGER, or an error if it does not fit in 64 signed bits.
  static func checked<T: FixedWidthInteger & UnsignedInteger>(
    _ value: T, _ codingPath: [any CodingKey]
  ) throws -> DatabaseValue {
    guard let signed = Int64(exactly: value) else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath,
          debugDescription: "\(value) does not fit in SQLite's 64-bit signed INTEGER"))
    }
    return .integer(signed)
  }
}
