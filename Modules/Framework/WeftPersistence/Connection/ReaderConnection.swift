/// An actor owning one read-only connection. Reads run in a deferred transaction on its
/// own dispatch queue, concurrently with the writer and the other readers (WAL).
///
/// The connection itself sits in a `ConnectionSlot`, which `Database.readSynchronously`
/// also uses from the caller's thread; the actor's jobs and such a read take turns.
///
/// - Note: Isolation: an actor on a `ConnectionExecutor`; its connection is used only
///   through its slot.
actor ReaderConnection {
  private let executor: ConnectionExecutor
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  private let path: String
  nonisolated let slot: ConnectionSlot

  init(index: Int, path: String) {
    self.executor = ConnectionExecutor(label: "weft.persistence.reader.\(index)")
    self.slot = ConnectionSlot(path: path)
    self.path = path
  }

  /// Opens the read-only connection.
  func open(
    configuration: Database.Configuration, counters: StatisticsCounters
  ) throws(PersistenceError) {
    let connection = try Connection(
      path: path, readOnly: true, busyTimeout: configuration.busyTimeout, counters: counters,
      cacheCapacity: configuration.statementCacheCapacity,
      extraFlags: configuration.extraOpenFlags)
    slot.store(connection)
  }

  /// Runs `body` in one read transaction; with `tracking`, also returns the tables it read.
  func read<T: Sendable, E: Error>(
    _ body: @Sendable (ReadContext) throws(E) -> T, tracking: Bool,
    lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> (T, Set<String>?) {
    try Self.read(slot, path: path, body, tracking: tracking, lift: lift)
  }

  /// Runs `body` in one read transaction on the calling thread, waiting for the slot.
  nonisolated static func read<T: Sendable, E: Error>(
    _ slot: ConnectionSlot, path: String, _ body: (ReadContext) throws(E) -> T,
    tracking: Bool, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> (T, Set<String>?) {
    try slot.withConnection(
      { (connection) throws(E) -> (T, Set<String>?) in
        guard let connection else { throw lift(.closed(path: path)) }
        return try connection.read(body, tracking: tracking, lift: lift)
      }, lift: lift)
  }

  /// Runs `body` with the connection, outside any transaction.
  func withConnection<T: Sendable>(
    _ body: @Sendable (Connection) -> T
  ) throws(PersistenceError) -> T {
    try slot.withConnection(
      { (connection) throws(PersistenceError) -> T in
        guard let connection else { throw .closed(path: path) }
        return body(connection)
      }, lift: { $0 })
  }

  /// Runs `body` with the connection (`nil` once closed) on this reader's queue, without a
  /// task, outside any transaction; returns at once.
  nonisolated func detached(_ body: @escaping @Sendable (Connection?) -> Void) {
    let slot = self.slot
    executor.async {
      do {
        try slot.withConnection(
          { (connection) throws(PersistenceError) in body(connection) }, lift: { $0 })
      } catch {
        // Only a nested use throws, and this queue's thread holds no slot: unreachable, but
        // the body still hears "no connection" rather than nothing.
        body(nil)
      }
    }
  }

  /// Closes the connection.
  func close() { slot.close() }
}
