import CSQLite

/// Encodes one record's top-level fields straight into an upsert statement's parameters
/// (binding mode), or into a list of columns when the statement is not known yet
/// (collecting mode, used once per model type per connection).
///
/// # Performance
/// In binding mode a field costs one `CodingKey.stringValue`, one comparison with the
/// expected column at that position (fields arrive in declaration order), and one
/// `sqlite3_bind_*`. The only allocation per record is the container box `Codable` makes.
///
/// - Note: Isolation: not `Sendable`; one per connection, reused for every record.
final class RecordEncoder: Encoder {
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  private enum Mode {
    case binding(Statement, RecordLayout.Upsert)
    case collecting
  }

  private var mode = Mode.collecting
  private var position = 0
  /// Columns bound in this record (binding mode).
  private(set) var boundCount = 0
  /// A field did not match the cached layout: the caller falls back to collecting mode.
  private(set) var mismatch = false
  /// The first error met while encoding (containers cannot throw from everywhere).
  private(set) var failure: (any Error)?
  /// Columns and values, in encoding order (collecting mode).
  private(set) var collected: [(name: String, value: DatabaseValue)] = []

  /// Prepares to bind one record into `statement` laid out as `upsert`.
  func beginBinding(_ statement: Statement, _ upsert: RecordLayout.Upsert) {
    mode = .binding(statement, upsert)
    position = 0
    boundCount = 0
    mismatch = false
    failure = nil
  }

  /// Prepares to collect one record's columns.
  func beginCollecting() {
    mode = .collecting
    collected.removeAll(keepingCapacity: true)
    mismatch = false
    failure = nil
  }

  /// Drops references to the last record's values and statement.
  func finish() {
    mode = .collecting
    collected.removeAll(keepingCapacity: true)
  }

  func fail(_ error: any Error) {
    if failure == nil { failure = error }
  }

  /// Stores one column value, in either mode.
  @inline(__always)
  func put(_ value: DatabaseValue, forKey key: some CodingKey) {
    switch mode {
    case .collecting:
      collected.append((key.stringValue, value))
    case .binding(let statement, let upsert):
      let name = key.stringValue
      let index: Int32
      if position < upsert.columns.count, upsert.columns[position] == name {
        index = Int32(position + 1)
      } else if let found = upsert.parameterIndex[name] {
        index = found
      } else {
        mismatch = true
        return
      }
      position = Int(index)
      boundCount += 1
      let code = statement.bind(value, at: index)
      if code != SQLITE_OK {
        fail(
          EncodingError.invalidValue(
            value, .init(codingPath: [key], debugDescription: "SQLite bind failed (\(code))")))
      }
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(RecordKeyedEncoder<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    fail(topLevelError("an unkeyed container (an array)"))
    return DiscardingUnkeyedContainer(codingPath: [])
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    fail(topLevelError("a single value"))
    return DiscardingSingleValueContainer(codingPath: [])
  }

  private func topLevelError(_ what: String) -> EncodingError {
    EncodingError.invalidValue(
      what,
      .init(
        codingPath: [],
        debugDescription: "a record encoded itself as \(what); it must use a keyed container"))
  }
}
