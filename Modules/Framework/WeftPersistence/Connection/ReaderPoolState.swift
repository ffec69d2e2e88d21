/// Which reader connections are free and who waits for one — a pure state machine; the
/// `ReaderPool` carries out its answers (resuming continuations outside the lock).
///
/// Waiters are served first come, first served, and a released reader goes straight to the
/// oldest waiter, so a stream of new reads cannot starve an old one.
///
/// - Complexity: acquire and release are O(1) amortised; cancel is O(w), w = waiters.
/// - Note: Isolation: a value; the owner keeps it behind a lock.
struct ReaderPoolState<Waiter> {
  private var free: [Int]
  private var waiters: [(id: UInt64, waiter: Waiter)] = []
  private var head = 0
  private(set) var isClosed = false

  init(readers: Int) { free = Array((0..<readers).reversed()) }

  var waiterCount: Int { waiters.count - head }

  enum WaitAction {
    /// Use this reader now.
    case use(Int)
    /// The waiter was queued; it is resumed by a release, a cancel or close.
    case enqueued
    /// The pool is closed.
    case closed
  }

  /// Takes a free reader, if any and the pool is open.
  mutating func acquire() -> Int? {
    isClosed ? nil : free.popLast()
  }

  /// Takes a free reader or queues `waiter` under `id`.
  mutating func wait(id: UInt64, waiter: Waiter) -> WaitAction {
    if isClosed { return .closed }
    if let reader = free.popLast() { return .use(reader) }
    waiters.append((id, waiter))
    return .enqueued
  }

  /// Gives `reader` back: returns the waiter it goes to, if one is waiting.
  mutating func release(_ reader: Int) -> (waiter: Waiter, reader: Int)? {
    if head < waiters.count, !isClosed {
      let next = waiters[head].waiter
      head += 1
      compact()
      return (next, reader)
    }
    free.append(reader)
    return nil
  }

  /// Removes the waiter `id` (its task was cancelled); returns it to be resumed with an
  /// error, or `nil` when it was already served.
  mutating func cancel(id: UInt64) -> Waiter? {
    guard let index = waiters[head...].firstIndex(where: { $0.id == id }) else { return nil }
    let removed = waiters.remove(at: index).waiter
    compact()
    return removed
  }

  /// Closes the pool; returns every waiter, to be resumed with an error.
  mutating func close() -> [Waiter] {
    isClosed = true
    let pending = waiters[head...].map(\.waiter)
    waiters.removeAll()
    head = 0
    return pending
  }

  private mutating func compact() {
    if head == waiters.count {
      waiters.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 32, head * 2 > waiters.count {
      waiters.removeFirst(head)
      head = 0
    }
  }
}

extension ReaderPoolState: Sendable where Waiter: Sendable {}
