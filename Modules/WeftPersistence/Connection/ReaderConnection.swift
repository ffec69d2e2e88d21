/// An actor owning one read-only connection. Reads run in a deferred transaction on its
/// own dispatch queue, concurrently with the writer and the other readers (WAL).
///
/// - Note: Isolation: an actor on a `ConnectionExecutor`; its connection never leaves it.
actor ReaderConnection {
  private let executor: ConnectionExecutor
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  private let path: String
  private var connection: Connection?

  init(index: Int, path: String) {
    self.executor = ConnectionExecutor(label: "weft.persistence.reader.\(index)")
    self.path = path
  }

  /// Opens the read-only connection.
  func open(configuration: Database.Configuration, counters: StatisticsCounters) throws {
    let connection = try Connection(
      path: path, readOnly: true, busyTimeout: configuration.busyTimeout, counters: counters,
      cacheCapacity: configuration.statementCacheCapacity)
    self.connection = connection
  }

  /// Runs `body` in one read transaction; with `tracking`, also returns the tables it read.
  func read<T: Sendable>(
    _ body: @Sendable (ReadContext) throws -> T, tracking: Bool
  ) throws
    -> (T, Set<String>?)
  {
    guard let connection else { throw PersistenceError.closed(path: path) }
    return try connection.read(body, tracking: tracking)
  }

  /// Runs `body` with the connection, outside any transaction.
  func withConnection<T: Sendable>(_ body: @Sendable (Connection) -> T) throws -> T {
    guard let connection else { throw PersistenceError.closed(path: path) }
    return body(connection)
  }

  /// Runs `body` with the connection (`nil` once closed) on this reader's queue, without a
  /// task, outside any transaction; returns at once.
  nonisolated func detached(_ body: @escaping @Sendable (Connection?) -> Void) {
    executor.async {
      // The executor runs this body on its queue, where the actor's jobs run one at a time.
      self.assumeIsolated { reader in body(reader.connection) }
    }
  }

  /// Closes the connection.
  func close() { connection = nil }
}
