/// Decodes records straight from a statement's current row: no intermediate dictionary, one
/// decoder per query reused for every row.
///
/// Column lookup guesses that fields are decoded in column order (true when the table was
/// created in field order) and falls back to a name lookup, so a mismatched order costs a
/// hash per field, not a failure.
///
/// - Note: Isolation: not `Sendable`; used within one fetch on the connection's owner.
final class RowDecoder: Decoder {
  let handle: OpaquePointer
  let names: [String]
  let indexByName: [String: Int32]
  var cursor = 0
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(statement: Statement, layout: ColumnLayout) {
    self.handle = statement.handle
    self.names = layout.names
    self.indexByName = layout.indexByName
  }

  /// Call before decoding each row.
  @inline(__always)
  func startRow() { cursor = 0 }

  /// The 0-based column index of `key`, or `nil` when the row has no such column.
  @inline(__always)
  func index(of key: some CodingKey) -> Int32? {
    let name = key.stringValue
    if cursor < names.count, names[cursor] == name {
      cursor += 1
      return Int32(cursor - 1)
    }
    guard let found = indexByName[name] else { return nil }
    cursor = Int(found) + 1
    return found
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(RowKeyedDecoder<Key>(decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw DecodingError.typeMismatch(
      [Any].self,
      .init(codingPath: [], debugDescription: "a record must decode from a keyed container"))
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw DecodingError.typeMismatch(
      Any.self,
      .init(codingPath: [], debugDescription: "a record must decode from a keyed container"))
  }
}

/// A statement's result column names with a name index, computed once per statement.
final class ColumnLayout {
  let names: [String]
  let indexByName: [String: Int32]

  init(names: [String]) {
    self.names = names
    var index: [String: Int32] = [:]
    for (offset, name) in names.enumerated() where index[name] == nil {
      index[name] = Int32(offset)
    }
    self.indexByName = index
  }
}
