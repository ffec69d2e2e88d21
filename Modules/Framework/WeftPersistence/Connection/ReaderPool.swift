import CSQLite
import Synchronization
import WeftCore

/// A fixed set of reader connections handed out one read at a time.
///
/// - Complexity: a read is O(1) to acquire and release, plus the wait for a free reader
///   when all are busy.
/// - Note: Isolation: thread-safe; reads may start from any isolation.
/// - Note: Allocations: a continuation only when every reader is busy.
final class ReaderPool: Sendable {
  private let readers: [ReaderConnection]
  private let path: String
  private let state: Locked<ReaderPoolState<Waiter>>
  private let nextWaiterID = Atomic<UInt64>(0)

  /// A read waiting for a free reader: resumed with the reader's index, or with `closed` or
  /// `cancelled`.
  typealias Waiter = CheckedContinuation<Result<Int, PersistenceError>, Never>

  init(path: String, count: Int) {
    self.path = path
    self.readers = (0..<max(count, 1)).map { ReaderConnection(index: $0, path: path) }
    self.state = Locked(ReaderPoolState(readers: readers.count))
  }

  /// Opens every reader connection.
  func open(
    configuration: Database.Configuration, counters: StatisticsCounters
  ) async throws(PersistenceError) {
    for reader in readers {
      try await reader.open(configuration: configuration, counters: counters)
    }
  }

  /// Runs `body` on a free reader.
  func read<T: Sendable, E: Error>(
    _ body: @Sendable (ReadContext) throws(E) -> T, tracking: Bool,
    lift: @Sendable (PersistenceError) -> E
  ) async throws(E) -> (T, Set<String>?) {
    let index: Int
    do { index = try await acquire() } catch { throw lift(error) }
    defer { release(index) }
    return try await readers[index].read(body, tracking: tracking, lift: lift)
  }

  /// Runs `body` in one read transaction on the calling thread: on a free reader when there
  /// is one (the pool keeps it from async reads meanwhile), otherwise on the next reader in
  /// turn, waiting in its `ConnectionSlot` for the read using it to finish.
  ///
  /// Only a thread that holds no connection waits (`mayWait`, and no reader slot of its
  /// own): a holder that waited could wait for a thread waiting for it. A nested call that
  /// finds every reader busy throws instead.
  func readSynchronously<T: Sendable, E: Error>(
    mayWait: Bool, _ body: (ReadContext) throws(E) -> T, lift: @Sendable (PersistenceError) -> E
  ) throws(E) -> T {
    if let index = state.withLock({ $0.acquire() }) {
      defer { release(index) }
      return try ReaderConnection.read(
        readers[index].slot, path: path, body, tracking: false, lift: lift
      ).0
    }
    guard mayWait, !holdsAReader else {
      throw lift(
        .sqlite(
          path: path, code: SQLITE_MISUSE,
          message: "every reader is busy and this synchronous read is nested in a read or "
            + "write (waiting could deadlock); read with the enclosing closure's context",
          sql: nil))
    }
    let turn = Int(nextWaiterID.add(1, ordering: .relaxed).newValue % UInt64(readers.count))
    return try ReaderConnection.read(
      readers[turn].slot, path: path, body, tracking: false, lift: lift
    ).0
  }

  /// Whether the calling thread holds one of the readers (it is inside a read).
  var holdsAReader: Bool { readers.contains { $0.slot.isHeldByCurrentThread } }

  /// Runs `body` with a free reader's connection, outside any transaction.
  func withConnection<T: Sendable>(
    _ body: @Sendable (Connection) -> T
  ) async throws(PersistenceError) -> T {
    let index = try await acquire()
    defer { release(index) }
    return try await readers[index].withConnection(body)
  }

  /// Runs `body` on a free reader's queue, without a task, and returns `true`; returns
  /// `false` without running it when every reader is busy or the pool is closed. The
  /// reader goes back to the pool after the body.
  func detached(_ body: @escaping @Sendable (Connection?) -> Void) -> Bool {
    guard let index = state.withLock({ $0.acquire() }) else { return false }
    readers[index].detached { connection in
      body(connection)
      self.release(index)
    }
    return true
  }

  /// Fails waiting reads and closes every reader connection.
  func close() async {
    let waiters = state.withLock { $0.close() }
    for waiter in waiters { waiter.resume(returning: .failure(.closed(path: path))) }
    for reader in readers { await reader.close() }
  }

  private func acquire() async throws(PersistenceError) -> Int {
    if let index = state.withLock({ $0.acquire() }) { return index }
    let id = nextWaiterID.add(1, ordering: .relaxed).newValue
    let path = path
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: Waiter) in
        let action = state.withLock {
          state -> ReaderPoolState<Waiter>.WaitAction? in
          // The cancellation handler may have run before we were queued.
          if Task.isCancelled { return nil }
          return state.wait(id: id, waiter: continuation)
        }
        switch action {
        case nil: continuation.resume(returning: .failure(.cancelled(path: path)))
        case .use(let index): continuation.resume(returning: .success(index))
        case .closed: continuation.resume(returning: .failure(.closed(path: path)))
        case .enqueued: break
        }
      }
    } onCancel: {
      state.withLock { $0.cancel(id: id) }?.resume(returning: .failure(.cancelled(path: path)))
    }
    return try outcome.get()
  }

  private func release(_ index: Int) {
    if let handover = state.withLock({ $0.release(index) }) {
      handover.waiter.resume(returning: .success(handover.reader))
    }
  }
}
