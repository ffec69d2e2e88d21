#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex.
///
/// Used instead of `Synchronization.Mutex` because, on Linux, `Mutex` locks with a futex
/// inside a prebuilt library that ThreadSanitizer cannot see: every access under it is
/// reported as a race (four threads incrementing a `Mutex<Int>` 20,000 times each reach
/// exactly 80,000 and still get a report). TSan intercepts `pthread_mutex_lock`, so with
/// this lock a sanitizer report means a real race.
///
/// - Complexity: O(1) per `withLock` plus `body`.
/// - Note: Isolation: thread-safe; `body` must not call `withLock` on the same lock.
/// - Note: Allocations: one mutex per lock; none per `withLock`.
final class Locked<Value: Sendable>: @unchecked Sendable {
  // Why `@unchecked Sendable` is sound: `value` is read and written only inside
  // `withLock`, between `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`, so no
  // two threads touch it at once; `mutex` itself is initialized in `init` before the lock is
  // shared and destroyed in `deinit`, when no other reference exists. `Value` is `Sendable`,
  // so what `withLock` hands out may cross threads.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
