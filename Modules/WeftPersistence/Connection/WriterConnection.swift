import CSQLite

/// The actor owning the one writer connection: write transactions run here, one at a time,
/// on the connection's own dispatch queue.
///
/// After each commit it tells the observation center which tables changed, before the next
/// write can start, so observers see commits in order.
///
/// The connection sits in a `ConnectionSlot`, which `Database.writeSynchronously` also uses
/// from the caller's thread; the actor's jobs and such a write take turns.
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

  /// Runs one write transaction, then wakes the observations of the tables it changed.
  func write<T: Sendable, E: Error>(
    _ body: @Sendable (DatabaseTransaction) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    try writeHere(body, lift: lift)
  }

  /// Runs one write transaction on the calling thread (the actor's queue, or the caller of
  /// `Database.writeSynchronously`), then wakes the observations of the tables it changed —
  /// still holding the slot, so observers hear of commits in commit order.
  nonisolated func writeHere<T: Sendable, E: Error>(
    _ body: (DatabaseTransaction) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    try withOpen(
      { (connection) throws(E) -> T in
        let monitor = environment.monitor
        let started = monitor?.isEnabled == true ? ContinuousClock.now : nil
        let value = try connection.write(body, environment: environment, lift: lift)
        if let monitor, let started {
          monitor.record(commits: 1)
          monitor.recordLatency(ContinuousClock.now - started)
        }
        let changed = connection.changedTables
        if !changed.isEmpty { observations.didCommit(changed) }
        return value
      }, lift: lift)
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
      cacheCapacity: configuration.statementCacheCapacity)
    let runs = try DatabaseSetup(
      connection: connection, configuration: configuration, environment: environment,
      inMemory: inMemory
    ).run(migrations: migrations)
    slot.store(connection)
    return runs
  }
}
