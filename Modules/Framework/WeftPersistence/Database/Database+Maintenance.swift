extension Database {
  /// How hard a checkpoint tries (`PRAGMA wal_checkpoint`).
  /// - Note: Isolation: a `Sendable` value.
  public enum CheckpointMode: String, Sendable {
    /// Copies what it can without waiting for readers or the writer.
    case passive = "PASSIVE"
    /// Waits for the writer, then copies everything readers allow.
    case full = "FULL"
    /// As `full`, then waits for readers and resets the WAL for reuse.
    case restart = "RESTART"
    /// As `restart`, then truncates the WAL file to zero bytes.
    case truncate = "TRUNCATE"
  }

  /// What a checkpoint did.
  /// - Note: Isolation: a `Sendable` value.
  public struct CheckpointResult: Sendable, Equatable {
    /// Whether every frame could be copied (no reader or writer was in the way).
    public var completed: Bool
    /// Frames in the WAL.
    public var walFrames: Int
    /// Frames copied into the database file.
    public var checkpointedFrames: Int
  }

  /// Copies the WAL into the database file. SQLite already does this automatically every
  /// `autoCheckpointPages` pages and `journalSizeLimit` bounds the WAL file; call this with
  /// `.truncate` to shrink the WAL to zero, for example when the app goes to background.
  ///
  /// - Complexity: O(w), w = frames in the WAL.
  /// - Note: Isolation: runs on the writer connection; waits for the current write.
  @discardableResult
  public func checkpoint(
    _ mode: CheckpointMode = .passive
  ) async throws(PersistenceError) -> CheckpointResult {
    try await writer.checkpoint(mode)
  }

  /// Runs `PRAGMA integrity_check` and returns its lines: `["ok"]` for a sound file.
  ///
  /// - Complexity: O(n), n = size of the database. Slow on large files.
  public func integrityCheck() async throws(PersistenceError) -> [String] {
    let rows = try await read { (db) throws(PersistenceError) in
      try db.rows("PRAGMA integrity_check")
    }
    return rows.map { row in
      if case .text(let line) = row[0] { return line }
      return row[0].description
    }
  }

  /// Returns once every observation has ended and its fetch task has finished. For tests
  /// that check no observation outlives them.
  package func waitUntilObservationsEnd() async {
    await observations.waitUntilIdle()
  }

  /// Returns once every commit's observation re-fetches have run (no pass running or
  /// waiting). For tests that count the work one commit causes.
  package func waitUntilObservationsSettle() async {
    await observations.waitUntilSettled()
  }

  /// Number of live observations.
  package var observationCount: Int { observations.count }
}
