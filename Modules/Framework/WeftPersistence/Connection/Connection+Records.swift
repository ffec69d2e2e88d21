import CSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Record operations, shared by `ReadContext` and `DatabaseTransaction`.
extension Connection {
  func layout<R: PersistableRecord>(for type: R.Type) -> RecordLayout {
    let key = ObjectIdentifier(type)
    if let layout = layouts[key] { return layout }
    let layout = RecordLayout(
      table: R.tableName, idColumn: R.idColumn, idIsUUID: R.ID.self == UUID.self)
    layouts[key] = layout
    return layout
  }

  func noteRead(_ table: String) {
    if trackedReads != nil { trackedReads!.insert(table.lowercased()) }
  }

  // MARK: Writing

  /// Inserts `record`, or updates the row with its id in place. A UUID id also finds a row
  /// stored under its lower-case form, and gives it the canonical id first.
  ///
  /// - Complexity: O(f + log n), f = fields, n = rows (the primary-key lookup; one more for
  ///   a UUID id).
  func save<R: PersistableRecord>(_ record: R) throws(PersistenceError) {
    let layout = layout(for: R.self)
    if layout.idIsUUID { try canonicalizeID(record.id, layout) }
    if let (statement, upsert) = layout.upsert {
      sqlite3_reset(statement.handle)
      encoder.beginBinding(statement, upsert)
      try encode(record, into: layout)
      if !encoder.mismatch, encoder.boundCount == upsert.columns.count {
        encoder.finish()
        counters.statements.add(1, ordering: .relaxed)
        _ = try step(statement, self.context(table: layout.table, id: recordIDText(record.id)))
        return
      }
    }
    try saveCollecting(record, layout)
  }

  /// The slow path: learns the columns from the record, builds the upsert, and caches it
  /// as the type's layout the first time.
  private func saveCollecting<R: PersistableRecord>(
    _ record: R, _ layout: RecordLayout
  ) throws(PersistenceError) {
    encoder.beginCollecting()
    try encode(record, into: layout)
    let collected = encoder.collected
    encoder.finish()
    let columns = collected.map(\.name)
    guard columns.contains(layout.idColumn) else {
      throw PersistenceError.encodingFailed(
        table: layout.table, codingPath: "",
        detail:
          "the record has no field \"\(layout.idColumn)\"; name its id field so, or set "
          + "idColumn")
    }
    guard Set(columns).count == columns.count else {
      throw PersistenceError.encodingFailed(
        table: layout.table, codingPath: "", detail: "a field was encoded twice")
    }
    let sql = layout.upsertSQL(columns: columns)
    let statement: Statement
    if layout.upsert == nil {
      statement = try prepare(sql, table: layout.table)
      layout.upsert = (statement, RecordLayout.Upsert(columns: columns))
    } else {
      statement = try cachedStatement(sql, table: layout.table)
    }
    let context = self.context(table: layout.table, id: recordIDText(record.id))
    try start(statement, collected.map(\.value), context)
    _ = try step(statement, context)
  }

  /// Renames a row stored under the lower-case form of the UUID `id` to the canonical form.
  private func canonicalizeID<ID: Encodable>(
    _ id: ID, _ layout: RecordLayout
  ) throws(PersistenceError) {
    let statement: Statement
    if let cached = layout.canonicalizeID {
      statement = cached
    } else {
      statement = try prepare(layout.canonicalizeIDSQL, table: layout.table)
      layout.canonicalizeID = statement
    }
    let context = self.context(table: layout.table, id: recordIDText(id))
    try start(statement, try idArguments(id, layout), context)
    defer { sqlite3_reset(statement.handle) }
    _ = try step(statement, context)
  }

  private func encode<R: PersistableRecord>(
    _ record: R, into layout: RecordLayout
  ) throws(PersistenceError) {
    do {
      try record.encode(to: encoder)
    } catch {
      encoder.fail(error)
    }
    if let failure = encoder.failure {
      encoder.finish()
      throw PersistenceError(encoding: failure, table: layout.table)
    }
  }

  /// Deletes the record with `id` (for a UUID id: in either case); returns whether one
  /// existed.
  ///
  /// - Complexity: O(log n), n = rows.
  func delete<R: PersistableRecord>(_ type: R.Type, id: R.ID) throws(PersistenceError) -> Bool {
    let layout = layout(for: type)
    let statement: Statement
    if let cached = layout.deleteByID {
      statement = cached
    } else {
      statement = try prepare(
        "DELETE FROM \(layout.quotedTable)" + layout.idCondition, table: layout.table)
      layout.deleteByID = statement
    }
    let context = self.context(table: layout.table, id: recordIDText(id))
    try start(statement, try idArguments(id, layout), context)
    defer { sqlite3_reset(statement.handle) }
    _ = try step(statement, context)
    return sqlite3_changes64(handle) > 0
  }

  /// Deletes every record matching `predicate`; returns how many were deleted.
  ///
  /// - Complexity: O(log n + k) with an index on the predicate's fields, else O(n).
  func delete<R: PersistableRecord>(
    _ type: R.Type, where predicate: RecordPredicate?
  ) throws(PersistenceError) -> Int {
    var builder = SQLBuilder(table: R.tableName)
    builder.append("DELETE FROM " + SQLBuilder.quote(R.tableName))
    try builder.appendWhere(predicate)
    let statement = try cachedStatement(builder.sql, table: R.tableName)
    let context = self.context(table: R.tableName, sql: builder.sql)
    try start(statement, builder.arguments, context)
    defer { sqlite3_reset(statement.handle) }
    _ = try step(statement, context)
    return Int(sqlite3_changes64(handle))
  }

  // MARK: Reading

  /// The record with `id`, or `nil`. A UUID id matches its canonical and lower-case text.
  ///
  /// - Complexity: O(log n + f), n = rows, f = fields.
  func fetch<R: PersistableRecord>(_ type: R.Type, id: R.ID) throws(PersistenceError) -> R? {
    let layout = layout(for: type)
    if sharedResults == nil { return try fetchUnshared(type, id: id, layout) }
    let arguments = try idArguments(id, layout)
    return try sharing(layout.quotedTable + layout.idCondition, arguments, record: R.self) {
      () throws(PersistenceError) in try fetchUnshared(type, id: id, layout)
    }
  }

  private func fetchUnshared<R: PersistableRecord>(
    _ type: R.Type, id: R.ID, _ layout: RecordLayout
  ) throws(PersistenceError) -> R? {
    let statement: Statement
    if let cached = layout.selectByID {
      statement = cached
    } else {
      statement = try prepare(
        "SELECT * FROM \(layout.quotedTable)" + layout.idCondition, table: layout.table)
      layout.selectByID = statement
    }
    noteRead(layout.table)
    let context = self.context(table: layout.table, id: recordIDText(id))
    try start(statement, try idArguments(id, layout), context)
    defer { sqlite3_reset(statement.handle) }
    guard try step(statement, context) else { return nil }
    return try RowPlan(R.self, statement).decode(sql: statement.sql)
  }

  /// Every record matching `descriptor`, in its order.
  ///
  /// - Complexity: O(log n + k·f) with an index on the predicate's fields, O(n + k·f)
  ///   without; k = records returned, f = fields.
  func fetchAll<R: PersistableRecord>(
    _ descriptor: FetchDescriptor<R>
  ) throws(PersistenceError) -> [R] {
    var builder = SQLBuilder(table: R.tableName)
    builder.append("SELECT * FROM " + SQLBuilder.quote(R.tableName))
    try builder.appendWhere(descriptor.predicate)
    try builder.appendOrder(descriptor.sortBy, limit: descriptor.limit, offset: descriptor.offset)
    if sharedResults == nil { return try fetchAll(R.self, builder) }
    return try sharing(builder.sql, builder.arguments, record: R.self) {
      () throws(PersistenceError) in try fetchAll(R.self, builder)
    }
  }

  private func fetchAll<R: PersistableRecord>(
    _ type: R.Type, _ builder: SQLBuilder
  ) throws(PersistenceError) -> [R] {
    let statement = try cachedStatement(builder.sql, table: R.tableName)
    noteRead(R.tableName)
    try start(statement, builder.arguments, self.context(table: R.tableName, sql: builder.sql))
    return try decodeAll(R.self, statement, table: R.tableName)
  }

  /// Steps `statement` (bound) to the end and decodes every row into `T`, then resets it.
  ///
  /// - Complexity: O(k·f), k = rows, f = columns.
  func decodeAll<T: Decodable>(
    _ type: T.Type, _ statement: Statement, table: String? = nil
  ) throws(PersistenceError) -> [T] {
    defer { sqlite3_reset(statement.handle) }
    let context = self.context(table: table, sql: statement.sql)
    guard try step(statement, context) else { return [] }
    if let fast = T.self as? any RowDecodable.Type {
      return try decodeAll(fast, as: T.self, statement)
    }
    let plan = RowPlan(T.self, statement)
    // Rows go into a plain buffer, moved into the array once at the end: appending to an
    // `[T]` in this unspecialized code looks up `Array<T>`'s metadata for every row.
    var buffer = RecordBuffer<T>()
    defer { buffer.release() }
    repeat {
      buffer.append(try plan.decode(sql: statement.sql))
    } while try step(statement, context)
    return buffer.moveToArray()
  }

  /// The fast path of `decodeAll`: `F`'s own specialized loop (`F` is `T`).
  private func decodeAll<F: RowDecodable, T: Decodable>(
    _ fast: F.Type, as type: T.Type, _ statement: Statement
  ) throws(PersistenceError) -> [T] {
    precondition(F.self == T.self, "the fast path decodes the type it was opened from")
    do {
      let values = try F._decodeAll(from: RowCursor(connection: self, statement: statement))
      // Safe: `F` is `T` (checked above), so `[F]` and `[T]` are one type. `as! [T]` would
      // be correct too, but the runtime's array cast copies every element.
      return unsafeBitCast(values, to: [T].self)
    } catch {
      throw RowPlan(T.self, statement).wrap(error, sql: statement.sql)
    }
  }

  /// How many records match `predicate`.
  ///
  /// - Complexity: O(log n + k) with an index, O(n) without.
  func count<R: PersistableRecord>(
    _ type: R.Type, where predicate: RecordPredicate?
  ) throws(PersistenceError) -> Int {
    var builder = SQLBuilder(table: R.tableName)
    builder.append("SELECT count(*) FROM " + SQLBuilder.quote(R.tableName))
    try builder.appendWhere(predicate)
    let count = { () throws(PersistenceError) -> Int in
      self.noteRead(R.tableName)
      guard case .integer(let count) = try self.scalar(builder.sql, builder.arguments) else {
        return 0
      }
      return Int(count)
    }
    if sharedResults == nil { return try count() }
    return try sharing(builder.sql, builder.arguments, record: Int.self, count)
  }

  /// The parameters of `layout.idCondition`: the encoded id, or a UUID's canonical and
  /// lower-case text.
  private func idArguments<ID: Encodable>(
    _ id: ID, _ layout: RecordLayout
  ) throws(PersistenceError)
    -> [DatabaseValue]
  {
    if layout.idIsUUID, let forms = UUIDForms.of(id) { return [forms.canonical, forms.lower] }
    do {
      return [try ColumnValue.encode(id, codingPath: [])]
    } catch {
      throw PersistenceError(encoding: error, table: layout.table)
    }
  }
}

extension PersistenceError {
  /// Wraps a coding error (or passes a `PersistenceError` through) with the table and id.
  init(decoding error: any Error, table: String, id: String?) {
    if let error = error as? PersistenceError {
      self = error
      return
    }
    let (path, detail) = codingDetails(of: error)
    self = .decodingFailed(table: table, id: id, codingPath: path, detail: detail)
  }

  init(encoding error: any Error, table: String) {
    if let error = error as? PersistenceError {
      self = error
      return
    }
    let (path, detail) = codingDetails(of: error)
    self = .encodingFailed(table: table, codingPath: path, detail: detail)
  }
}

private func codingDetails(of error: any Error) -> (path: String, detail: String) {
  switch error {
  case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
    DecodingError.dataCorrupted(let context):
    return (context.codingPath.dottedPath, context.debugDescription)
  case DecodingError.keyNotFound(let key, let context):
    return (
      (context.codingPath.isEmpty ? [key] : context.codingPath).dottedPath, context.debugDescription
    )
  case EncodingError.invalidValue(_, let context):
    return (context.codingPath.dottedPath, context.debugDescription)
  default:
    return ("", String(describing: error))
  }
}

/// A growable buffer of records that needs no `Array<R>` metadata per append; its contents
/// are moved (not copied) into an array once, at the end.
///
/// - Note: Isolation: a local of one fetch; never copied (`~Copyable`).
struct RecordBuffer<R>: ~Copyable {
  private var base: UnsafeMutablePointer<R>?
  private var count = 0
  private var capacity = 0

  init() {}

  @inline(__always)
  mutating func append(_ record: consuming R) {
    if count == capacity { grow() }
    (base! + count).initialize(to: record)
    count += 1
  }

  private mutating func grow() {
    let newCapacity = Swift.max(16, capacity * 2)
    let newBase = UnsafeMutablePointer<R>.allocate(capacity: newCapacity)
    if let base {
      newBase.moveInitialize(from: base, count: count)
      base.deallocate()
    }
    base = newBase
    capacity = newCapacity
  }

  /// Moves the records into an array, leaving the buffer empty.
  mutating func moveToArray() -> [R] {
    guard let base, count > 0 else { return [] }
    let moved = count
    count = 0
    return [R](unsafeUninitializedCapacity: moved) { destination, initialized in
      destination.baseAddress!.moveInitialize(from: base, count: moved)
      initialized = moved
    }
  }

  /// Destroys any records left (after an error) and frees the memory.
  mutating func release() {
    guard let base else { return }
    base.deinitialize(count: count)
    base.deallocate()
    self.base = nil
    count = 0
    capacity = 0
  }
}
