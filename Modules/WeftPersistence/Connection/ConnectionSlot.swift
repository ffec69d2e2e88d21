import WeftCore

/// Where a reader connection lives, behind a lock: the one place in WeftPersistence where a
/// caller's own thread waits (blocks) for a connection.
///
/// A reader's actor jobs and `Database.readSynchronously` both use the connection through
/// `withConnection`, so they never use the handle at once (it is opened
/// `SQLITE_OPEN_NOMUTEX`). The lock is uncontended on the usual paths: a synchronous read
/// takes a reader the pool marked free, and an actor job takes the reader the pool gave it.
/// It is contended only when every reader is busy and a synchronous read waits for one,
/// and when `close` waits for a synchronous read in progress.
///
/// Together with `ConnectionExecutor` (the dispatch queue each connection's actor runs on)
/// this is what a deterministic runtime replaces to run connections as its own jobs.
///
/// - Complexity: O(1) plus the wait for the current user of the connection.
/// - Note: Isolation: thread-safe; `withConnection` may block the calling thread.
final class ConnectionSlot: Sendable {
  /// `Locked` (not `Mutex`): the project's lock, visible to ThreadSanitizer. Its
  /// `@unchecked Sendable` is what lets the non-`Sendable` connection be used from several
  /// threads, one at a time, under the lock — exactly SQLite's rule for a
  /// `SQLITE_OPEN_NOMUTEX` handle.
  private let connection = Locked<Connection?>(nil)

  init() {}

  /// Runs `body` with the connection (`nil` before open and after close), waiting for its
  /// current user to finish first.
  func withConnection<T: Sendable>(_ body: (Connection?) throws -> T) rethrows -> T {
    try connection.withLock { connection in try body(connection) }
  }

  /// Stores the opened connection.
  func store(_ opened: Connection) {
    connection.withLock { $0 = opened }
  }

  /// Drops the connection (closing it), after the current user finishes.
  func close() {
    connection.withLock { $0 = nil }
  }
}
