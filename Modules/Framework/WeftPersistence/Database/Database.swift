import Synchronization

/// An embedded SQLite database: one writer connection and a small pool of readers, async
/// and safe to use from any isolation.
///
/// ```swift
/// let database = try await Database.open(at: url.path, migrations: migrations)
/// try await database.write { tx in
///   try tx.save(metric)
///   try tx.enqueue(.create, metric)
/// }
/// let today = try await database.fetchAll(Metric.self, where: Field("day") == day)
/// for try await metrics in database.observe(FetchDescriptor<Metric>()) { render(metrics) }
/// ```
///
/// The file is in WAL mode: reads run concurrently with each other and with the one write
/// transaction in progress, each read seeing the last committed state. Writes are
/// serialised. Every committed transaction survives the app being killed (with
/// `synchronous = .normal`, the default) — the kill tests check it.
///
/// # Performance
/// The slow parts are the ones SQLite cannot avoid: a write transaction's commit (a WAL
/// append, plus an fsync per checkpoint), and preparing a statement the first time (cached
/// per connection afterwards). A `read` costs one hop to a reader's serial queue and back,
/// a few microseconds; a `write` that finds the writer idle runs on the calling task's
/// thread with no hop (one queued behind another write hops). Batch many changes into one
/// `write` all the same: each is a commit. Encoding and decoding records
/// go straight between fields and SQLite columns, without dictionaries. Observations cost
/// a commit nothing unless the commit touches their tables.
///
/// - Note: Isolation: thread-safe. Reads run on the connections' own serial dispatch
///   queues; a write runs there too unless the writer is idle, when it runs on the calling
///   task's thread of the cooperative pool (never the MainActor's), where it waits for
///   nothing but its own disk writes. Results come back to the caller's isolation.
/// - Note: Allocations: per call, the closure context, and one continuation for a read or
///   a write that goes to a queue.
public final class Database: Sendable {
  /// The file's path, or `:memory:`.
  public let path: String
  /// The migrations that ran while opening, with their durations (empty when the schema
  /// was already up to date).
  public let migrationRuns: [MigrationRun]
  /// What opening noticed about the files without failing: a file (or sidecar) whose
  /// permissions grant more than `Configuration.fileMode`, and whether it was tightened.
  /// Empty for a file Weft created, and for in-memory databases.
  public let diagnostics: [DatabaseDiagnostic]

  let writer: WriterConnection
  let readers: ReaderPool?
  let observations: ObservationCenter
  let counters: StatisticsCounters
  let environment: DatabaseEnvironment
  private let isClosed = Atomic<Bool>(false)

  private init(
    path: String, migrationRuns: [MigrationRun], diagnostics: [DatabaseDiagnostic],
    writer: WriterConnection, readers: ReaderPool?, observations: ObservationCenter,
    counters: StatisticsCounters, environment: DatabaseEnvironment
  ) {
    self.path = path
    self.migrationRuns = migrationRuns
    self.diagnostics = diagnostics
    self.writer = writer
    self.readers = readers
    self.observations = observations
    self.counters = counters
    self.environment = environment
  }

  /// Opens (or creates) the database at `path` and runs the migrations it has not run yet,
  /// each in its own transaction, in order.
  ///
  /// A database whose schema version is higher than `migrations.count` was written by a
  /// newer app: it is refused and left untouched.
  ///
  /// A new file is created owner-only (`Configuration.fileMode`, `0o600`), and so is every
  /// sidecar SQLite makes beside it; an existing file that grants more is reported in
  /// `diagnostics` (and tightened with `Configuration.tightensExistingFileMode`).
  ///
  /// - Throws: `PersistenceError.notADatabase`, `.corrupt`, `.readOnlyLocation`,
  ///   `.cannotOpen`, `.newerSchema`, `.schemaMismatch` (tables no migration created),
  ///   `.invalidMigrations`, `.migrationFailed`.
  /// - Complexity: O(1) plus the pending migrations.
  /// - Note: Allocations: the connections (1 + `maximumReaders`) and their dispatch queues.
  public static func open(
    at path: String, migrations: [Migration] = [], configuration: Configuration = Configuration()
  ) async throws(PersistenceError) -> Database {
    try await make(
      path: path, migrations: migrations, configuration: configuration, inMemory: false)
  }

  /// Opens a new, empty database in memory (for tests and caches). Reads run on the writer
  /// connection.
  ///
  /// - Complexity: O(1) plus the migrations.
  /// - Note: Allocations: one connection and its dispatch queue.
  public static func inMemory(
    migrations: [Migration] = [], configuration: Configuration = Configuration()
  ) async throws(PersistenceError) -> Database {
    try await make(
      path: ":memory:", migrations: migrations, configuration: configuration, inMemory: true)
  }

  private static func make(
    path: String, migrations: [Migration], configuration: Configuration, inMemory: Bool
  ) async throws(PersistenceError) -> Database {
    let counters = StatisticsCounters()
    let observations = ObservationCenter(burstInterval: configuration.observationBurstInterval)
    let environment = DatabaseEnvironment(configuration)
    let diagnostics =
      inMemory
      ? []
      : DatabaseFiles.prepare(
        path: path, mode: configuration.fileMode,
        tighten: configuration.tightensExistingFileMode)
    let writer = WriterConnection(
      path: path, environment: environment, observations: observations, counters: counters)
    let runs = try await writer.open(
      configuration: configuration, migrations: migrations, inMemory: inMemory)
    var readers: ReaderPool?
    if !inMemory {
      let pool = ReaderPool(path: path, count: configuration.maximumReaders)
      do {
        try await pool.open(configuration: configuration, counters: counters)
      } catch {
        await pool.close()
        await writer.close()
        throw error
      }
      readers = pool
    }
    return Database(
      path: path, migrationRuns: runs, diagnostics: diagnostics, writer: writer,
      readers: readers, observations: observations, counters: counters,
      environment: environment)
  }

  /// Runs `body` in a read transaction: every fetch in it sees the same committed snapshot.
  ///
  /// - Throws: what the body throws, unchanged; otherwise a `PersistenceError` (the
  ///   database is `closed`, the task was `cancelled` waiting for a reader, …). A body
  ///   declared `throws(PersistenceError)` selects the typed overload instead.
  /// - Complexity: O(1) to schedule, plus the body's fetches.
  /// - Note: Isolation: the body runs on a reader connection's serial queue; waits for a
  ///   free reader when all are busy.
  public func read<T: Sendable>(_ body: @Sendable (ReadContext) throws -> T) async throws -> T {
    try await performRead(body, tracking: false, lift: { $0 }).0
  }

  /// Runs `body` in a read transaction, as `read(_:)`, for a body that throws only
  /// `PersistenceError` (`{ (db) throws(PersistenceError) in … }`, or a non-throwing one): the
  /// call then throws exactly `PersistenceError`.
  ///
  /// - Complexity: O(1) to schedule, plus the body's fetches.
  /// - Note: Isolation: the body runs on a reader connection's serial queue; waits for a
  ///   free reader when all are busy.
  public func read<T: Sendable>(
    _ body: @Sendable (ReadContext) throws(PersistenceError) -> T
  ) async throws(PersistenceError) -> T {
    try await performRead(body, tracking: false, lift: { $0 }).0
  }

  /// Runs `body` in a write transaction: committed when it returns, rolled back if it
  /// throws (the error is rethrown). Then wakes the observations of the tables it changed.
  ///
  /// - Throws: what the body throws, unchanged, or a `PersistenceError` when the commit
  ///   fails or the database is closed. A body declared `throws(PersistenceError)` selects
  ///   the typed overload instead.
  /// - Complexity: O(1) to schedule, plus the body's work and the commit.
  /// - Note: Isolation: one write transaction at a time, in the order they reach the
  ///   writer. When no other write is queued or running and no other process holds SQLite's
  ///   write lock, the body runs on the calling task's thread of the cooperative pool (off
  ///   the MainActor: a call from there hops to the pool first) with no hop; otherwise on
  ///   the writer connection's serial queue. Either way the caller's thread never waits for
  ///   another write or for the busy timeout; inline, it runs the body and the commit's WAL
  ///   append (and the fsync of an automatic checkpoint).
  @discardableResult
  public func write<T: Sendable>(
    _ body: @Sendable (DatabaseTransaction) throws -> T
  ) async throws -> T {
    try await writer.writeFromTask(body, lift: { $0 })
  }

  /// Runs `body` in a write transaction, as `write(_:)`, for a body that throws only
  /// `PersistenceError` (`{ (tx) throws(PersistenceError) in … }`, or a non-throwing one):
  /// the call then throws exactly `PersistenceError`.
  ///
  /// - Complexity: O(1) to schedule, plus the body's work and the commit.
  /// - Note: Isolation: one write transaction at a time, in the order they reach the
  ///   writer. When no other write is queued or running and no other process holds SQLite's
  ///   write lock, the body runs on the calling task's thread of the cooperative pool (off
  ///   the MainActor: a call from there hops to the pool first) with no hop; otherwise on
  ///   the writer connection's serial queue. Either way the caller's thread never waits for
  ///   another write or for the busy timeout; inline, it runs the body and the commit's WAL
  ///   append (and the fsync of an automatic checkpoint).
  @discardableResult
  public func write<T: Sendable>(
    _ body: @Sendable (DatabaseTransaction) throws(PersistenceError) -> T
  ) async throws(PersistenceError) -> T {
    try await writer.writeFromTask(body, lift: { $0 })
  }

  func performRead<T: Sendable, E: Error>(
    _ body: @Sendable (ReadContext) throws(E) -> T, tracking: Bool,
    lift: @Sendable (PersistenceError) -> E
  ) async throws(E) -> (T, Set<String>?) {
    try await readRoute.read(body, tracking: tracking, lift: lift)
  }

  /// Where reads go: the reader pool, or the writer for in-memory databases. Observation
  /// tasks hold this, not the `Database`, so dropping the database is not delayed by them.
  var readRoute: ReadRoute { ReadRoute(writer: writer, readers: readers) }

  /// Exact counts since the database was opened.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: any; five relaxed atomic loads.
  public var statistics: DatabaseStatistics { counters.snapshot }

  /// Closes every connection and ends every observation. Later calls throw
  /// `PersistenceError.closed`. Calling it twice is harmless.
  ///
  /// - Complexity: O(r + o), r = readers, o = observations.
  /// - Note: Isolation: waits for the current read or write on each connection to finish.
  public func close() async {
    guard !isClosed.exchange(true, ordering: .relaxed) else { return }
    observations.close()
    await readers?.close()
    await writer.close()
  }
}

/// The connections a read can run on.
struct ReadRoute: Sendable {
  let writer: WriterConnection
  let readers: ReaderPool?

  func read<T: Sendable, E: Error>(
    _ body: @Sendable (ReadContext) throws(E) -> T, tracking: Bool,
    lift: @Sendable (PersistenceError) -> E
  ) async throws(E) -> (T, Set<String>?) {
    if let readers { return try await readers.read(body, tracking: tracking, lift: lift) }
    return try await writer.read(body, tracking: tracking, lift: lift)
  }

  /// Runs `body` on a free reader connection's queue without a task, when one is free;
  /// returns `false` otherwise (and always for in-memory databases).
  func detached(_ body: @escaping @Sendable (Connection?) -> Void) -> Bool {
    readers?.detached(body) ?? false
  }

  /// Runs `body` with a reader connection (the writer's for in-memory databases), outside
  /// any transaction: the body begins its own.
  func withConnection<T: Sendable>(
    _ body: @Sendable (Connection) -> T
  ) async throws(PersistenceError) -> T {
    if let readers { return try await readers.withConnection(body) }
    return try await writer.withConnection(body)
  }
}
