/// Decodes records straight from a statement's current row: no intermediate dictionary, one
/// decoder per statement (kept by `Statement.rowDecoder`) reused for every row.
///
/// Column lookup guesses that fields are decoded in column order (true when the table was
/// created in field order) and falls back to a name lookup, so a mismatched order costs a
/// hash per field, not a failure.
///
/// - Note: Isolation: not `Sendable`; used within one fetch on the connection's owner.
final class RowDecoder: Decoder {
  let state: RowState
  /// The keyed container made for the last `Key` type asked for, reused for every row: a
  /// record's `init(from:)` asks for the same `CodingKeys` each row, and making a
  /// `KeyedDecodingContainer` costs generic-metadata and witness-table lookups plus a box
  /// allocation. Stored as a `ContainerHolder<KeyedDecodingContainer<Key>>`, with
  /// `cachedKeyType` naming `Key`.
  private var cachedKeyType: ObjectIdentifier?
  private var cachedContainer: AnyObject?
  /// For a slice decoder, the statement's full layout it was cut from (to notice a
  /// re-prepare).
  weak var sourceLayout: ColumnLayout?
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// A decoder of `layout`'s columns, which start at result column `base` (0, or where a
  /// join's second record starts).
  init(statement: Statement, layout: ColumnLayout, base: Int32 = 0) {
    self.state = RowState(handle: statement.handle, layout: layout, base: base)
  }

  /// The column layout this decoder reads by.
  var layout: ColumnLayout { state.layout }

  var handle: OpaquePointer { state.handle }
  var indexByName: [String: Int32] { state.indexByName }

  /// Call before decoding each row.
  @inline(__always)
  func startRow() { state.startRow() }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    if cachedKeyType == ObjectIdentifier(Key.self), let cachedContainer {
      // Safe: `cachedContainer` is only ever set together with `cachedKeyType`, to a
      // `ContainerHolder` of the container type for the very `Key` it identifies.
      return unsafeDowncast(cachedContainer, to: ContainerHolder<KeyedDecodingContainer<Key>>.self)
        .value()
    }
    return makeContainer(keyedBy: type)
  }

  /// Makes the container for `Key` and caches it in place of the previous one. Out of line so
  /// the cached path above needs no metadata lookup.
  @inline(never)
  private func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key>
  {
    state.claimKeyTable(for: Key.self)
    let container = KeyedDecodingContainer(RowKeyedDecoder<Key>(state: state))
    cachedContainer = ContainerHolder(container)
    cachedKeyType = ObjectIdentifier(Key.self)
    return container
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

/// What a row's keyed container reads: the statement, its columns and the column-order cursor.
/// Separate from `RowDecoder` so the container it caches does not retain it (no cycle).
///
/// - Note: Isolation: not `Sendable`; used within one fetch on the connection's owner.
final class RowState {
  let handle: OpaquePointer
  let layout: ColumnLayout
  /// The result column of the layout's first column.
  let base: Int32
  let names: [String]
  let indexByName: [String: Int32]
  /// The next column the cursor guesses (fields decoded in column order).
  private let cursorStorage: UnsafeMutablePointer<Int>
  /// The one-byte `CodingKey` type whose columns `columnByKeyByte` holds, set by the first
  /// keyed container of such a type: a record decodes with one `CodingKeys` type.
  private(set) var tableKeyType: ObjectIdentifier?
  /// For `tableKeyType`'s keys, indexed by the key's byte: column index + 1, 0 while not
  /// looked up yet, -1 when the row has no such column. (Pointers rather than stored
  /// arrays or vars: no exclusivity checks or uniqueness checks per field read.)
  let columnByKeyByte: UnsafeMutablePointer<Int32>

  init(handle: OpaquePointer, layout: ColumnLayout, base: Int32) {
    self.handle = handle
    self.layout = layout
    self.base = base
    self.names = layout.names
    self.indexByName = layout.indexByName
    self.cursorStorage = .allocate(capacity: 1)
    cursorStorage.initialize(to: 0)
    self.columnByKeyByte = .allocate(capacity: 256)
    columnByKeyByte.initialize(repeating: 0, count: 256)
  }

  deinit {
    cursorStorage.deallocate()
    columnByKeyByte.deallocate()
  }

  /// Claims the key table for `Key` if no type has it yet.
  func claimKeyTable<Key: CodingKey>(for type: Key.Type) {
    if tableKeyType == nil, MemoryLayout<Key>.size == 1 {
      tableKeyType = ObjectIdentifier(Key.self)
    }
  }

  /// Call before decoding each row.
  @inline(__always)
  func startRow() { cursorStorage.pointee = 0 }

  /// The 0-based column index of `key` within the layout, or `nil` when the row has no
  /// such column.
  @inline(__always)
  func index(of key: some CodingKey) -> Int32? {
    let name = key.stringValue
    let cursor = cursorStorage.pointee
    if cursor < names.count, names[cursor] == name {
      cursorStorage.pointee = cursor + 1
      return Int32(cursor)
    }
    guard let found = indexByName[name] else { return nil }
    cursorStorage.pointee = Int(found) + 1
    return found
  }
}

/// A keyed container kept across rows by `RowDecoder`.
///
/// Generic over the container type itself, so `value()` finds that type's metadata in the
/// holder's own class metadata instead of looking `KeyedDecodingContainer<Key>` up (a hash
/// lookup in the runtime's metadata cache) for every row.
final class ContainerHolder<Container> {
  private let container: Container
  init(_ container: Container) { self.container = container }

  /// A copy of the container. Not inlined: inlined, the caller would look the metadata up.
  @inline(never)
  func value() -> Container { container }
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
