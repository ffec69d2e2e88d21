import CSQLite

/// One SQLite connection: the handle, its statement cache and its per-model record layouts.
///
/// A connection is confined to one owner (the writer actor or one reader actor) and is
/// never `Sendable`: SQLite is opened with `SQLITE_OPEN_NOMUTEX`, which is safe exactly
/// because no two threads ever use the handle at once — the owning actor guarantees it.
///
/// # Performance
/// Preparing SQL is the slow part (tens of microseconds); every statement is prepared once
/// per connection and cached by its text, and record statements are cached per model type,
/// so the steady path binds and steps only.
///
/// - Note: Isolation: not `Sendable`; confined to its owning actor.
/// - Note: Allocations: one `Statement` per distinct SQL text, once; none per execution.
final class Connection {
  let handle: OpaquePointer
  /// The path as given (`:memory:` for an in-memory database), used in every error.
  let path: String
  let counters: StatisticsCounters
  private let collector = AuthorizerCollector()
  private var cache: [String: Statement] = [:]
  private let cacheCapacity: Int
  /// Record statements and column layouts, one per model type.
  var layouts: [ObjectIdentifier: RecordLayout] = [:]
  /// The encoder reused for every record this connection writes.
  let encoder = RecordEncoder()

  /// Tables changed by the current write transaction (lowercased).
  private(set) var changedTables: Set<String> = []
  private var lastTracked: ObjectIdentifier?
  /// When non-nil, every statement executed adds the tables it reads (observation regions).
  var trackedReads: Set<String>?

  /// Opens `path` (created if missing, unless `readOnly`).
  ///
  /// - Throws: `PersistenceError.readOnlyLocation`, `.cannotOpen`, … when SQLite refuses.
  init(
    path: String, readOnly: Bool, busyTimeout: Duration, counters: StatisticsCounters,
    cacheCapacity: Int
  ) throws {
    var opened: OpaquePointer?
    let access = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    let code = sqlite3_open_v2(path, &opened, access | SQLITE_OPEN_NOMUTEX, nil)
    guard code == SQLITE_OK, let opened else {
      let error = PersistenceError.sqlite(
        code: code, handle: opened, context: ErrorContext(path: path))
      sqlite3_close_v2(opened)
      throw error
    }
    self.handle = opened
    self.path = path
    self.counters = counters
    self.cacheCapacity = max(cacheCapacity, 8)
    sqlite3_extended_result_codes(opened, 1)
    // A quoted name of a missing column must be an error, never the string 'name'.
    _ = weft_sqlite3_disable_double_quoted_strings(opened)
    let milliseconds =
      busyTimeout.components.seconds * 1000
      + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    sqlite3_busy_timeout(opened, Int32(clamping: milliseconds))
    collector.install(on: opened)
  }

  deinit {
    layouts.removeAll()
    cache.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Builds the typed error for a failed call, with the connection's message and errno.
  func error(_ code: Int32, _ context: ErrorContext) -> PersistenceError {
    PersistenceError.sqlite(code: code, handle: handle, context: context)
  }

  func context(table: String? = nil, id: String? = nil, sql: String? = nil) -> ErrorContext {
    ErrorContext(path: path, table: table, id: id, sql: sql)
  }

  // MARK: Statements

  /// Compiles `sql` without caching it.
  ///
  /// - Complexity: O(n) in the SQL length, plus SQLite's compile time.
  func prepare(_ sql: String, table: String? = nil) throws -> Statement {
    collector.reset()
    var prepared: OpaquePointer?
    let code = sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
    guard code == SQLITE_OK, let prepared else {
      if code == SQLITE_OK {
        throw PersistenceError.sqlite(
          path: path, code: SQLITE_MISUSE, message: "empty statement", sql: sql)
      }
      throw error(code, context(table: table, sql: sql))
    }
    return Statement(handle: prepared, sql: sql, collected: collector)
  }

  /// The cached statement for `sql`, compiled on first use.
  ///
  /// - Complexity: O(n) expected (hashing the SQL text), n = its length.
  func cachedStatement(_ sql: String, table: String? = nil) throws -> Statement {
    if let statement = cache[sql] { return statement }
    let statement = try prepare(sql, table: table)
    if cache.count >= cacheCapacity {
      cache.removeAll(keepingCapacity: true)
      lastTracked = nil
    }
    cache[sql] = statement
    return statement
  }

  /// Resets `statement`, binds `arguments` (1-based, in order) and counts one execution.
  @inline(__always)
  func start(
    _ statement: Statement, _ arguments: [DatabaseValue] = [],
    _ context: @autoclosure () -> ErrorContext
  ) throws {
    sqlite3_reset(statement.handle)
    counters.statements.add(1, ordering: .relaxed)
    if trackedReads != nil { trackedReads!.formUnion(statement.readTables) }
    for (offset, value) in arguments.enumerated() {
      let code = statement.bind(value, at: Int32(offset + 1))
      if code != SQLITE_OK { throw error(code, context()) }
    }
  }

  /// Steps once: `true` when a row is available, `false` when done. Notes the tables a
  /// write changed.
  @inline(__always)
  func step(_ statement: Statement, _ context: @autoclosure () -> ErrorContext) throws -> Bool {
    if statement.isReadOnly {
      let code = sqlite3_step(statement.handle)
      if code == SQLITE_ROW { return true }
      if code == SQLITE_DONE { return false }
      throw failure(code, statement, context())
    }
    let before = sqlite3_total_changes64(handle)
    let code = sqlite3_step(statement.handle)
    guard code == SQLITE_ROW || code == SQLITE_DONE else {
      throw failure(code, statement, context())
    }
    if statement.changesSchema || sqlite3_total_changes64(handle) != before {
      noteWrite(statement)
    }
    return code == SQLITE_ROW
  }

  private func failure(
    _ code: Int32, _ statement: Statement, _ context: ErrorContext
  )
    -> PersistenceError
  {
    var context = context
    if context.sql == nil { context.sql = statement.sql }
    let mapped = error(code, context)
    sqlite3_reset(statement.handle)
    return mapped
  }

  /// Runs `sql` to completion, discarding rows.
  func execute(
    _ sql: String, _ arguments: [DatabaseValue] = [], table: String? = nil, id: String? = nil
  ) throws {
    let statement = try cachedStatement(sql, table: table)
    try start(statement, arguments, self.context(table: table, id: id, sql: sql))
    defer { sqlite3_reset(statement.handle) }
    while try step(statement, self.context(table: table, id: id, sql: sql)) {}
  }

  /// The rowid of the last row inserted on this connection.
  var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Runs `sql` and returns every row as values by column name.
  func rows(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [Row] {
    let statement = try cachedStatement(sql)
    try start(statement, arguments, self.context(sql: sql))
    defer { sqlite3_reset(statement.handle) }
    let names = statement.columnNames
    var rows: [Row] = []
    while try step(statement, self.context(sql: sql)) {
      rows.append(Row(columns: names, values: (0..<Int32(names.count)).map(statement.value(at:))))
    }
    return rows
  }

  /// The first column of the first row, or `nil` when there is no row.
  func scalar(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> DatabaseValue? {
    let statement = try cachedStatement(sql)
    try start(statement, arguments, self.context(sql: sql))
    defer { sqlite3_reset(statement.handle) }
    return try step(statement, self.context(sql: sql)) ? statement.value(at: 0) : nil
  }

  // MARK: Change tracking

  /// Clears the changed-table set at the start of a write transaction.
  func resetChangeTracking() {
    if !changedTables.isEmpty { changedTables.removeAll(keepingCapacity: true) }
    lastTracked = nil
  }

  private func noteWrite(_ statement: Statement) {
    let identifier = ObjectIdentifier(statement)
    if lastTracked == identifier { return }
    lastTracked = identifier
    changedTables.formUnion(statement.writtenTables)
  }
}
