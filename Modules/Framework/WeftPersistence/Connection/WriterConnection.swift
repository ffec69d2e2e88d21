import CSQLite
import Synchronization

/// The actor owning the one writer connection: write transactions run one at a time, on
/// the connection's own dispatch queue — or, for an async write that finds the writer idle
/// (`writeFromTask`), on the calling task's thread, with no hop.
///
/// After each commit it tells the observation center which tables changed, before the next
/// write can start, so observers see commits in order.
///
/// The connection sits in a `ConnectionSlot`, which `Database.writeSynchronously` and the
/// inline writes also use from the caller's thread; the actor's jobs and such writes take
/// turns.
///
/// - Note: Isolation: an actor on a `ConnectionExecutor`; its connection is used only
///   through its slot.
actor WriterConnection {
  private let executor: ConnectionExecutor
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  let path: String
  private let environment: DatabaseEnvironment
  private let observations: ObservationCenter
  private let counters: StatisticsCounters
  nonisolated let slot: ConnectionSlot
  /// Async writes sent to the actor and not finished yet, plus one while an inline write
  /// runs. An async write runs inline only when it can raise this from 0: then no write is
  /// queued before it, so writes issued while others wait keep the actor's order.
  private nonisolated let pendingWrites = Atomic<Int>(0)
  /// Async writes that went to the actor's queue (the writer was not idle), since open:
  /// what the tests read to know a write was queued.
  nonisolated let queuedWrites = Atomic<Int>(0)
  /// Whether an idle writer runs async writes on the caller's thread: not on the
  /// deterministic runtime, whose schedule runs every connection job as its own.
  private nonisolated let writesInline: Bool

  init(
    path: String, environment: DatabaseEnvironment, observations: ObservationCenter,
    counters: StatisticsCounters
  ) {
    self.executor = ConnectionExecutor(label: "weft.persistence.writer")
    self.path = path
    self.environment = environment
    self.observations = observations
    self.counters = counters
    self.slot = ConnectionSlot(path: path)
    self.writesInline = executor.isDispatchQueue
  }

  /// Runs `body` with the open connection, holding the slot.
  private nonisolated func withOpen<T: Sendable, E: Error>(
    _ body: (Connection) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    try slot.withConnection(
      { (connection) throws(E) -> T in
        guard let connection else { throw lift(.closed(path: path)) }
        return try body(connection)
      }, lift: lift)
  }

  /// Runs one write transaction for an async caller (`Database.write`): on the calling
  /// thread when the writer is idle, otherwise on the actor's queue.
  ///
  /// Inline means: no write is queued or running (`pendingWrites` was 0), the slot is free
  /// (no synchronous write, read or checkpoint holds it), and SQLite's write lock is free
  /// (no other process holds it; `BEGIN IMMEDIATE` is tried without the busy handler). Each
  /// check only tries, so the calling thread — a thread of the cooperative pool, since
  /// this function is `@concurrent` — never waits for anyone; what it runs is the body and
  /// the commit (a WAL append, and an fsync when the commit triggers a checkpoint). When a
  /// check fails, the write is sent to the actor as before.
  @concurrent
  nonisolated func writeFromTask<T: Sendable, E: Error>(
    _ body: @Sendable (DatabaseTransaction) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) async throws(E) -> T {
    if writesInline,
      pendingWrites.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing)
        .exchanged
    {
      let written: T?
      do {
        defer { pendingWrites.subtract(1, ordering: .releasing) }
        written = try writeInline(body, lift: lift)
      }
      if let written { return written }
    }
    pendingWrites.add(1, ordering: .acquiringAndReleasing)
    queuedWrites.add(1, ordering: .relaxed)
    return try await write(body, lift: lift)
  }

  /// Runs one write transaction on the actor's queue, then wakes the observations of the
  /// tables it changed. Counted in `pendingWrites` by `writeFromTask`, which sent it.
  private func write<T: Sendable, E: Error>(
    _ body: @Sendable (DatabaseTransaction) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    defer { pendingWrites.subtract(1, ordering: .releasing) }
    return try writeHere(body, lift: lift)
  }

  /// Runs one write transaction on the calling thread (the actor's queue, or the caller of
  /// `Database.writeSynchronously`), then wakes the observations of the tables it changed —
  /// still holding the slot, so observers hear of commits in commit order.
  nonisolated func writeHere<T: Sendable, E: Error>(
    _ body: (DatabaseTransaction) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    try withOpen(
      { (connection) throws(E) -> T in
        let started = commitStarted()
        let value = try connection.write(body, environment: environment, lift: lift)
        committed(connection, started: started)
        return value
      }, lift: lift)
  }

  /// Runs one write transaction on the calling thread if neither the slot nor SQLite's
  /// write lock is taken, as `writeHere` does; `nil`, having run nothing and waited for
  /// nothing, when either is.
  private nonisolated func writeInline<T: Sendable, E: Error>(
    _ body: (DatabaseTransaction) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T? {
    let outcome = try slot.withConnectionIfFree { (connection) throws(E) -> T? in
      guard let connection else { throw lift(.closed(path: path)) }
      let started = commitStarted()
      guard let value = try connection.writeIfUnlocked(body, environment: environment, lift: lift)
      else { return nil }
      committed(connection, started: started)
      return value
    }
    return outcome ?? nil
  }

  /// When the monitor (if any) times commits: now.
  private nonisolated func commitStarted() -> ContinuousClock.Instant? {
    environment.monitor?.isEnabled == true ? ContinuousClock.now : nil
  }

  /// After a commit, still holding the slot: the monitor's figures, and the observations
  /// of the tables it changed.
  private nonisolated func committed(_ connection: Connection, started: ContinuousClock.Instant?) {
    if let monitor = environment.monitor, let started {
      monitor.record(commits: 1)
      monitor.recordLatency(ContinuousClock.now - started)
    }
    let changed = connection.changedTables
    if !changed.isEmpty { observations.didCommit(changed) }
  }

  /// Runs a read on the writer (in-memory databases have no readers).
  func read<T: Sendable, E: Error>(
    _ body: @Sendable (ReadContext) throws(E) -> T, tracking: Bool,
    lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> (T, Set<String>?) {
    try withOpen(
      { (connection) throws(E) -> (T, Set<String>?) in
        try connection.read(body, tracking: tracking, lift: lift)
      }, lift: lift)
  }

  /// Runs `body` with the connection outside any transaction (observation passes of
  /// in-memory databases, which have no readers).
  func withConnection<T: Sendable>(
    _ body: @Sendable (Connection) -> T
  ) throws(PersistenceError) -> T {
    try withOpen({ (connection) throws(PersistenceError) in body(connection) }, lift: { $0 })
  }

  /// Runs `PRAGMA wal_checkpoint(mode)`.
  func checkpoint(
    _ mode: Database.CheckpointMode
  ) throws(PersistenceError) -> Database.CheckpointResult {
    let rows = try withOpen(
      { (connection) throws(PersistenceError) in
        try connection.rows("PRAGMA wal_checkpoint(\(mode.rawValue))")
      }, lift: { $0 })
    guard let row = rows.first, case .integer(let busy) = row[0],
      case .integer(let log) = row[1], case .integer(let checkpointed) = row[2]
    else { return Database.CheckpointResult(completed: true, walFrames: 0, checkpointedFrames: 0) }
    return Database.CheckpointResult(
      completed: busy == 0, walFrames: Int(log), checkpointedFrames: Int(checkpointed))
  }

  /// Closes the connection; later calls throw `PersistenceError.closed`.
  func close() { slot.close() }

  /// Opens the connection and brings the schema up to date (see `Database.open`).
  func open(
    configuration: Database.Configuration, migrations: [Migration], inMemory: Bool
  ) throws(PersistenceError) -> [MigrationRun] {
    let connection = try Connection(
      path: path, readOnly: false, busyTimeout: configuration.busyTimeout, counters: counters,
      cacheCapacity: configuration.statementCacheCapacity,
      extraFlags: inMemory ? 0 : configuration.extraOpenFlags)
    let runs = try DatabaseSetup(
      connection: connection, configuration: configuration, environment: environment,
      inMemory: inMemory
    ).run(migrations: migrations)
    slot.store(connection)
    return runs
  }
}
