#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`: the lock every Weft module uses.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// ```
///
/// Weft uses this instead of `Synchronization.Mutex` because on Linux `Mutex` waits on raw
/// futexes, which ThreadSanitizer cannot see: every access under it is then reported as a
/// race. `pthread_mutex_lock` is intercepted by the sanitizer, so it sees the ordering.
///
/// `@unchecked Sendable`: `value` is only read or written inside `withLock`, which holds the
/// mutex for the whole access, so no two threads touch it at once. The value and the mutex
/// live in manually allocated memory with stable addresses (a `pthread_mutex_t` must never
/// move), freed in `deinit`.
///
/// - Complexity: `withLock` is one uncontended lock and unlock (≈ 20 ns) plus the body;
///   `withLockIfAvailable` the same, or one failed try when the lock is held.
/// - Note: Isolation: thread-safe; never call `withLock` on the same lock inside its body.
public final class Locked<Value>: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let value: UnsafeMutablePointer<Value>

  /// Makes a lock around `initial`.
  public init(_ initial: Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    value = .allocate(capacity: 1)
    value.initialize(to: initial)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  public func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }

  /// Runs `body` with exclusive access to the value if no other thread holds the lock;
  /// returns `nil` at once, without waiting, when one does.
  ///
  /// ```swift
  /// if let value = cache.withLockIfAvailable({ $0.first }) { use(value) }
  /// ```
  ///
  /// - Complexity: one `pthread_mutex_trylock` (≈ 20 ns) plus the body when it runs.
  /// - Note: Isolation: thread-safe; never waits. Never call it on the same lock inside a
  ///   `withLock` body (it would return `nil`).
  @inlinable
  public func withLockIfAvailable<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    guard pthread_mutex_trylock(mutex) == 0 else { return nil }
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
