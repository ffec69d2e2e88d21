import CSQLite

// swift-format-ignore: AmbiguousTrailingClosureOverload
// The two `writeSynchronously` overloads are chosen by the closure's declared thrown type (a body
// declared `throws(PersistenceError)`, or one that throws nothing, selects the typed one).
extension Database {
  /// Runs `body` in a write transaction on the calling thread, with the writer connection:
  /// committed when it returns, rolled back if it throws. Then wakes the observations of
  /// the tables it changed, as `write` does. No task, no hop to another thread.
  ///
  /// ```swift
  /// try database.writeSynchronously { tx in try tx.save(draft) }
  /// ```
  ///
  /// Opt in to it where small writes come one at a time from a thread that may block (a
  /// background import loop, a command-line tool); `write` stays the default.
  ///
  /// > Important: It blocks the calling thread for the whole transaction: until the write
  /// > in progress (an async `write`, or another thread's) finishes, then the commit's WAL
  /// > append, a checkpoint's fsync when the WAL reaches `autoCheckpointPages`, and up to
  /// > `Configuration.busyTimeout` when another process holds the write lock. Never call it
  /// > on the MainActor; debug builds print a warning when such a call holds the main
  /// > thread longer than a frame (16 ms). Calling it inside a `read` or `write` body throws
  /// > (it would wait while holding a connection, which could deadlock).
  ///
  /// - Throws: what the body throws, or `PersistenceError` when the commit fails or the
  ///   database is closed.
  /// - Complexity: O(1) to take the writer (a lock), plus the body's work and the commit.
  /// - Note: Isolation: runs on the caller's thread, any isolation; blocks it (see above).
  @discardableResult
  public func writeSynchronously<T: Sendable>(
    _ body: (DatabaseTransaction) throws -> T
  ) throws -> T {
    try writeHere(body, lift: { $0 })
  }

  /// Runs `body` in a write transaction on the calling thread, as `writeSynchronously(_:)`,
  /// for a body that throws only `PersistenceError` (or nothing): the call then throws
  /// exactly `PersistenceError`.
  ///
  /// - Complexity: O(1) to take the writer (a lock), plus the body's work and the commit.
  /// - Note: Isolation: runs on the caller's thread, any isolation; blocks it.
  @discardableResult
  public func writeSynchronously<T: Sendable>(
    _ body: (DatabaseTransaction) throws(PersistenceError) -> T
  ) throws(PersistenceError) -> T {
    try writeHere(body, lift: { $0 })
  }

  private func writeHere<T: Sendable, E: Error>(
    _ body: (DatabaseTransaction) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    #if DEBUG
    let started = ContinuousClock.now
    defer { SlowMainThreadCall.check(since: started, call: "writeSynchronously", path: path) }
    #endif
    if readers?.holdsAReader == true {
      throw lift(
        .sqlite(
          path: path, code: SQLITE_MISUSE,
          message: "a synchronous write nested in a read would wait for the writer while "
            + "holding a reader (waiting could deadlock); write after the read", sql: nil))
    }
    return try writer.writeHere(body, lift: lift)
  }
}
