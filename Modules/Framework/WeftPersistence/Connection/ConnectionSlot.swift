import CSQLite
import Synchronization
import WeftCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a connection lives, behind a lock: the one place in WeftPersistence where a
/// caller's own thread waits (blocks) for a connection.
///
/// A connection's actor jobs, the synchronous calls (`Database.readSynchronously`) and the
/// inline path of an async write all use the connection through the slot, so they never
/// use the handle at once (it is opened `SQLITE_OPEN_NOMUTEX`). The lock is uncontended on
/// the usual paths: a synchronous read takes a reader the pool marked free, an actor job
/// takes the reader the pool gave it, and an inline write only tries it (it never waits).
/// It is contended only when every reader is busy and a synchronous read waits for one,
/// when a write job waits for a synchronous or inline write in progress, and when `close`
/// waits for a synchronous call in progress.
///
/// Together with `ConnectionExecutor` (the dispatch queue each connection's actor runs on)
/// this is what a deterministic runtime replaces to run connections as its own jobs.
///
/// - Complexity: O(1) plus the wait for the current user of the connection.
/// - Note: Isolation: thread-safe; `withConnection` may block the calling thread, and throws
///   instead of deadlocking when that thread already holds this slot (a synchronous call
///   nested in a read or write of the same connection).
final class ConnectionSlot: Sendable {
  /// `Locked` (not `Mutex`): the project's lock, visible to ThreadSanitizer. Its
  /// `@unchecked Sendable` is what lets the non-`Sendable` connection be used from several
  /// threads, one at a time, under the lock — exactly SQLite's rule for a
  /// `SQLITE_OPEN_NOMUTEX` handle.
  private let connection = Locked<Connection?>(nil)
  /// The thread holding the lock (`pthread_self` as a number), 0 when none. Only the holder
  /// writes its own id, so a thread reading its own id here is certain it holds the lock.
  private let holder = Atomic<UInt>(0)
  private let path: String

  init(path: String) { self.path = path }

  /// Whether the calling thread holds this slot.
  var isHeldByCurrentThread: Bool { holder.load(ordering: .relaxed) == CurrentThread.id }

  /// Runs `body` with the connection (`nil` before open and after close), waiting for its
  /// current user to finish first.
  ///
  /// - Throws: `PersistenceError.sqlite` (SQLITE_MISUSE) when the calling thread already
  ///   holds the slot (`lift`ed into the body's error type); what `body` throws.
  func withConnection<T: Sendable, E: Error>(
    _ body: (Connection?) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    let me = CurrentThread.id
    if holder.load(ordering: .relaxed) == me {
      throw lift(
        .sqlite(
          path: path, code: SQLITE_MISUSE,
          message: "a synchronous read or write nested in a read or write of the same "
            + "connection would wait for itself; use the enclosing closure's context",
          sql: nil))
    }
    return try connection.withLock { (connection) throws(E) -> T in
      holder.store(me, ordering: .relaxed)
      defer { holder.store(0, ordering: .relaxed) }
      return try body(connection)
    }
  }

  /// Runs `body` with the connection if no other thread is using it; returns `nil` at
  /// once, without waiting, when one is (or when the calling thread itself holds the slot).
  /// The inline path of an async write (`WriterConnection.writeInline`) uses it, so that a
  /// task's thread never waits here.
  ///
  /// - Complexity: one lock try, plus the body when it runs.
  func withConnectionIfFree<T: Sendable, E: Error>(
    _ body: (Connection?) throws(E) -> T
  ) throws(E) -> T? {
    let me = CurrentThread.id
    return try connection.withLockIfAvailable { (connection) throws(E) -> T in
      holder.store(me, ordering: .relaxed)
      defer { holder.store(0, ordering: .relaxed) }
      return try body(connection)
    }
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
