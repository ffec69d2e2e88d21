import CSQLite

extension Connection {
  /// Runs `body` in a deferred read transaction, so every statement in it sees one
  /// snapshot. With `tracking`, also returns the tables the body read.
  ///
  /// The body's errors pass through as they are; the transaction's own errors are `lift`ed
  /// into the body's error type (`{ $0 }` for both `any Error` and `PersistenceError`).
  func read<T, E: Error>(
    _ body: (ReadContext) throws(E) -> T, tracking: Bool, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> (T, Set<String>?) {
    if tracking { trackedReads = [] }
    defer { trackedReads = nil }
    do { try execute("BEGIN DEFERRED") } catch { throw lift(error) }
    let value: T
    do {
      value = try body(ReadContext(connection: self))
    } catch {
      rollbackIfNeeded()
      throw error
    }
    let region = trackedReads
    do {
      try execute("COMMIT")
    } catch {
      rollbackIfNeeded()
      throw lift(error)
    }
    return (value, region)
  }

  /// Runs `body` inside the open read transaction, beginning a deferred one when none is
  /// open (the first fetch of an observation pass, or SQLite rolled back after an error),
  /// and returns the tables it read. The caller ends the transaction (`endSharedRead`).
  ///
  /// The snapshot is taken by the first statement that reads, so it includes every commit
  /// made before that. The library's queries run in it are shared by query with the later
  /// fetches of the same transaction (`sharing`); a new transaction starts with none.
  func sharedRead<T, E: Error>(
    _ body: (ReadContext) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> (T, Set<String>) {
    if sqlite3_get_autocommit(handle) != 0 {
      sharedResults = [:]
      do { try execute("BEGIN DEFERRED") } catch { throw lift(error) }
    }
    trackedReads = []
    defer { trackedReads = nil }
    let value = try body(ReadContext(connection: self))
    guard sqlite3_get_autocommit(handle) == 0 else {
      throw lift(
        .sqlite(
          path: path, code: SQLITE_MISUSE,
          message:
            "the observed fetch ended the read transaction itself (COMMIT or ROLLBACK); a fetch "
            + "only reads", sql: nil))
    }
    return (value, trackedReads ?? [])
  }

  /// Ends the read transaction `sharedRead` opened, if it is still open.
  func endSharedRead() {
    sharedResults = nil
    guard sqlite3_get_autocommit(handle) == 0 else { return }
    do {
      try execute("COMMIT")
    } catch {
      // Every value was already fetched from one consistent snapshot and delivered; a read
      // transaction that cannot commit is rolled back so the next read starts clean (and
      // if that fails too, the next BEGIN on this connection reports SQLite's error).
      rollbackIfNeeded()
    }
  }

  /// Runs `body` in an immediate write transaction and commits; rolls back if it throws.
  /// Returns the body's value; `changedTables` then holds the tables it changed.
  ///
  /// The body's errors pass through as they are; the transaction's own errors are `lift`ed
  /// into the body's error type (`{ $0 }` for both `any Error` and `PersistenceError`).
  func write<T, E: Error>(
    _ body: (DatabaseTransaction) throws(E) -> T, environment: DatabaseEnvironment,
    lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    resetChangeTracking()
    do { try execute("BEGIN IMMEDIATE") } catch { throw lift(error) }
    return try writeBegun(body, environment: environment, lift: lift)
  }

  /// Runs `body` in an immediate write transaction, as `write`, only if the write lock is
  /// free: when another connection (another process) holds it, returns `nil` at once,
  /// without running the body and without waiting the busy timeout.
  ///
  /// The inline path of an async write uses it, so that a task's thread never sleeps in
  /// SQLite's busy handler; the write then goes to the writer's queue, which may wait.
  func writeIfUnlocked<T, E: Error>(
    _ body: (DatabaseTransaction) throws(E) -> T, environment: DatabaseEnvironment,
    lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T? {
    resetChangeTracking()
    sqlite3_busy_timeout(handle, 0)
    do {
      try execute("BEGIN IMMEDIATE")
    } catch {
      sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
      if error.kind == .busy { return nil }
      throw lift(error)
    }
    sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    return try writeBegun(body, environment: environment, lift: lift)
  }

  /// The rest of `write` once `BEGIN IMMEDIATE` succeeded: the body, then COMMIT, or a
  /// rollback.
  private func writeBegun<T, E: Error>(
    _ body: (DatabaseTransaction) throws(E) -> T, environment: DatabaseEnvironment,
    lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    let value: T
    do {
      value = try body(DatabaseTransaction(connection: self, environment: environment))
    } catch {
      rolledBack()
      throw error
    }
    do throws(PersistenceError) {
      guard sqlite3_get_autocommit(handle) == 0 else {
        throw PersistenceError.sqlite(
          path: path, code: SQLITE_MISUSE,
          message:
            "the write closure ended the transaction itself (COMMIT or ROLLBACK); return or "
            + "throw instead and let write commit or roll back", sql: nil)
      }
      try execute("COMMIT")
    } catch {
      rolledBack()
      throw lift(error)
    }
    counters.commits.add(1, ordering: .relaxed)
    return value
  }

  /// Rolls back a failed write transaction and counts it.
  private func rolledBack() {
    rollbackIfNeeded()
    resetChangeTracking()
    counters.rollbacks.add(1, ordering: .relaxed)
  }

  /// Rolls back the open transaction, if SQLite has not already done so.
  func rollbackIfNeeded() {
    guard sqlite3_get_autocommit(handle) == 0 else { return }
    // This runs while the body's error propagates, and that error is the one the caller must
    // see. A ROLLBACK that fails is not lost: the transaction stays open, so the next BEGIN
    // on this connection fails with SQLite's own error.
    try? execute("ROLLBACK")  // try?: the caller's error wins; the next BEGIN resurfaces it
  }

  /// `PRAGMA user_version`.
  func userVersion() throws(PersistenceError) -> Int {
    guard case .integer(let version) = try scalar("PRAGMA user_version") else { return 0 }
    return Int(version)
  }
}
