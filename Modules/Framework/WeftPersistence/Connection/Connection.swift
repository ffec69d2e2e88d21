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
  /// `Configuration.busyTimeout` in milliseconds, as given to `sqlite3_busy_timeout`.
  let busyTimeoutMilliseconds: Int32
  /// Record statements and column layouts, one per model type.
  var layouts: [ObjectIdentifier: RecordLayout] = [:]
  /// The encoder reused for every record this connection writes.
  let encoder = RecordEncoder()

  /// Tables changed by the current write transaction (lowercased).
  private(set) var changedTables: Set<String> = []
  private var lastTracked: ObjectIdentifier?
  /// When non-nil, every statement executed adds the tables it reads (observation regions).
  var trackedReads: Set<String>?
  /// While an observation pass's read transaction is open: the results of the library's
  /// own queries (`count`, `fetchAll`, `fetch` by id) run in it, by query, so observations
  /// running the identical query in one snapshot share one execution. `nil` outside a pass.
  var sharedResults: [SharedQuery: SharedResult]?

  /// Opens `path` (created if missing, unless `readOnly`); `extraFlags` are added to the
  /// open flags (Apple's Data Protection classes).
  ///
  /// - Throws: `PersistenceError.readOnlyLocation`, `.cannotOpen`, … when SQLite refuses.
  init(
    path: String, readOnly: Bool, busyTimeout: Duration, counters: StatisticsCounters,
    cacheCapacity: Int, extraFlags: Int32 = 0
  ) throws(PersistenceError) {
    var opened: OpaquePointer?
    let access = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    let code = sqlite3_open_v2(
      path, &opened, access | SQLITE_OPEN_NOMUTEX | extraFlags, nil)
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
    busyTimeoutMilliseconds = Int32(clamping: milliseconds)
    sqlite3_busy_timeout(opened, busyTimeoutMilliseconds)
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
  func prepare(_ sql: String, table: String? = nil) throws(PersistenceError) -> Statement {
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
  func cachedStatement(_ sql: String, table: String? = nil) throws(PersistenceError) -> Statement {
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
  ) throws(PersistenceError) {
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
  func step(
    _ statement: Statement, _ context: @autoclosure () -> ErrorContext
  ) throws(PersistenceError) -> Bool {
    if statement.isReadOnly {
      // A raw BEGIN or COMMIT inside a pass may start another snapshot: stop sharing the
      // results of this one.
      if statement.controlsTransaction, sharedResults?.isEmpty == false {
        sharedResults!.removeAll()
      }
      let code = sqlite3_step(statement.handle)
      if code == SQLITE_ROW { return true }
      if code == SQLITE_DONE { return false }
      throw failure(code, statement, context())
    }
    // A statement that may write (only possible on the writer of an in-memory database)
    // invalidates results shared within the snapshot.
    if sharedResults?.isEmpty == false { sharedResults!.removeAll() }
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

  /// Steps a statement that has just returned a row: `true` when there is another. The
  /// same as `step`, minus its checks for statements that begin or end a transaction (which
  /// return no rows) for a read-only statement, so a fetch's per-row step is SQLite's alone.
  @inline(__always)
  func stepAgain(
    _ statement: Statement, _ context: @autoclosure () -> ErrorContext
  ) throws(PersistenceError) -> Bool {
    guard statement.isReadOnly else { return try step(statement, context()) }
    let code = sqlite3_step(statement.handle)
    if code == SQLITE_ROW { return true }
    if code == SQLITE_DONE { return false }
    throw failure(code, statement, context())
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
  ) throws(PersistenceError) {
    let statement = try cachedStatement(sql, table: table)
    try start(statement, arguments, self.context(table: table, id: id, sql: sql))
    defer { sqlite3_reset(statement.handle) }
    while try step(statement, self.context(table: table, id: id, sql: sql)) {}
  }

  /// The rowid of the last row inserted on this connection.
  var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Runs `sql` and returns every row as values by column name.
  func rows(_ sql: String, _ arguments: [DatabaseValue] = []) throws(PersistenceError) -> [Row] {
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
  func scalar(
    _ sql: String, _ arguments: [DatabaseValue] = []
  ) throws(PersistenceError) -> DatabaseValue? {
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

/// A library query as observation passes share it: the SQL, its bound values and the type of
/// its result. Two equal keys run in one snapshot return equal results (the library's
/// queries are deterministic: no `random()`, no clock).
struct SharedQuery: Hashable {
  let sql: String
  let arguments: [DatabaseValue]
  let result: ObjectIdentifier
}

/// A shared query's result and the tables it read (added to each sharer's region).
struct SharedResult {
  let value: Any
  let reads: Set<String>
}

extension Connection {
  /// Runs `query`, or returns the result the identical query (`sql`, `arguments`, result
  /// type) produced earlier in the current observation pass; outside a pass it just runs
  /// `query`. A shared result still adds the tables the query read to the caller's region.
  ///
  /// Records of class type (`record`) are never shared: each observer gets its own
  /// instances.
  ///
  /// - Complexity: O(n) to hash the SQL and values, plus the query on a miss.
  @inline(__always)
  func sharing<T>(
    _ sql: String, _ arguments: [DatabaseValue], record: Any.Type,
    _ query: () throws(PersistenceError) -> T
  ) throws(PersistenceError) -> T {
    guard sharedResults != nil, let outer = trackedReads, !(record is AnyClass) else {
      return try query()
    }
    let key = SharedQuery(sql: sql, arguments: arguments, result: ObjectIdentifier(T.self))
    if let shared = sharedResults![key], let value = shared.value as? T {
      trackedReads = outer.union(shared.reads)
      return value
    }
    trackedReads = []
    let value: T
    do {
      value = try query()
    } catch {
      trackedReads = outer.union(trackedReads ?? [])
      throw error
    }
    let reads = trackedReads ?? []
    trackedReads = outer.union(reads)
    // Share only while the pass's snapshot is still the one the query ran in.
    if sharedResults != nil, sqlite3_get_autocommit(handle) == 0 {
      sharedResults![key] = SharedResult(value: value, reads: reads)
    }
    return value
  }
}
