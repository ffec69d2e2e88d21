import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// swift-format-ignore: AmbiguousTrailingClosureOverload
// The two `readSynchronously` overloads are chosen by the closure's declared thrown type (a body
// declared `throws(PersistenceError)`, or one that throws nothing, selects the typed one).
extension Database {
  /// Runs `body` in a read transaction on the calling thread, with a reader connection, and
  /// returns its result: no task, no hop to another thread.
  ///
  /// ```swift
  /// let open = try database.readSynchronously { db in
  ///   try db.fetchAll(Task.self, where: Field("done") == false)
  /// }
  /// ```
  ///
  /// Opt in to it where a value is needed now and the read is known to be short (a lookup by
  /// id, a small indexed query); `read` stays the default.
  ///
  /// > Important: It blocks the calling thread for the whole read: the disk reads SQLite
  /// > makes (a cold page cache on a slow disk), a wait of up to
  /// > `Configuration.busyTimeout` when another process holds a lock SQLite needs (WAL
  /// > recovery, a checkpoint in TRUNCATE mode), and, when every reader connection is busy,
  /// > the wait for the read on the one it takes. Called on the MainActor, each of those is a
  /// > dropped frame; debug builds print a warning when such a call takes longer than a frame
  /// > (16 ms). Nested in another read or write closure it never waits: it uses a free
  /// > reader, or throws when none is free (waiting there could deadlock).
  ///
  /// The read sees the last committed state, like `read`, and never waits for a write.
  ///
  /// - Throws: what the body throws; `PersistenceError.closed` after `close()`;
  ///   `PersistenceError.sqlite` (SQLITE_MISUSE) for an in-memory database, which has no
  ///   reader connections (use `read`).
  /// - Complexity: O(1) to take a reader (a lock), plus the body's fetches; no allocation
  ///   beyond the body's.
  /// - Note: Isolation: runs on the caller's thread, any isolation; blocks it (see above).
  public func readSynchronously<T: Sendable>(_ body: (ReadContext) throws -> T) throws -> T {
    try readHere(body, lift: { $0 })
  }

  /// Runs `body` in a read transaction on the calling thread, as `readSynchronously(_:)`,
  /// for a body that throws only `PersistenceError` (or nothing): the call then throws
  /// exactly `PersistenceError`.
  ///
  /// - Complexity: O(1) to take a reader (a lock), plus the body's fetches.
  /// - Note: Isolation: runs on the caller's thread, any isolation; blocks it.
  public func readSynchronously<T: Sendable>(
    _ body: (ReadContext) throws(PersistenceError) -> T
  ) throws(PersistenceError) -> T {
    try readHere(body, lift: { $0 })
  }

  private func readHere<T: Sendable, E: Error>(
    _ body: (ReadContext) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    guard let readers else {
      throw lift(
        .sqlite(
          path: path, code: SQLITE_MISUSE,
          message: "an in-memory database has no reader connection to read on synchronously; "
            + "use read", sql: nil))
    }
    #if DEBUG
    let started = ContinuousClock.now
    defer { SlowMainThreadCall.check(since: started, call: "readSynchronously", path: path) }
    #endif
    return try readers.readSynchronously(
      mayWait: !writer.slot.isHeldByCurrentThread, body, lift: lift)
  }
}

#if DEBUG
/// The debug-build warning for a synchronous read or write that held the main thread for
/// longer than a frame.
enum SlowMainThreadCall {
  static let frame = Duration.milliseconds(16)

  static func check(since start: ContinuousClock.Instant, call: String, path: String) {
    let elapsed = ContinuousClock.now - start
    guard elapsed > frame, isMainThread else { return }
    let message =
      "WeftPersistence: \(call) held the main thread for \(elapsed) (longer than a frame) "
      + "on \(path); use the async call there\n"
    var bytes = Array(message.utf8)
    _ = write(2, &bytes, bytes.count)  // stderr; a short write loses only a warning
  }

  /// Whether the calling thread is the process's main thread (the MainActor's). Only asked
  /// after a slow read, so its cost (a `readlink` on Linux) does not matter.
  static var isMainThread: Bool {
    #if canImport(Darwin)
    return pthread_main_np() != 0
    #else
    // `/proc/thread-self` links to `<pid>/task/<tid>`; the main thread's tid is the pid.
    var buffer = [CChar](repeating: 0, count: 64)
    let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
    guard count > 0 else { return false }
    let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return link == "\(getpid())/task/\(getpid())"
    #endif
  }
}
#endif
