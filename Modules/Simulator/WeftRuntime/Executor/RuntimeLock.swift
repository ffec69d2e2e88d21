#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex, with a condition to wait on: what the runtime's loop
/// needs to sleep while another thread may still hand it a job. (WeftCore's `Locked` has no
/// condition; this module depends on no other Weft module.)
///
/// - Complexity: O(1) per call.
/// - Note: Isolation: thread-safe.
/// - Note: Allocations: two blocks at creation, none after.
final class RuntimeLock<Value: Sendable>: @unchecked Sendable {
  // Safe: `value` is itself `Sendable`, so what goes in or comes out may cross threads; it
  // is read and written only between pthread_mutex_lock and unlock on `mutex`, so no two
  // threads touch it at once; and the mutex and condition live in manually allocated memory
  // with stable addresses (a pthread_mutex_t must never move).
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>
  private var value: Value

  init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value, under the lock.
  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }

  /// Wakes a thread waiting in `wait(seconds:)`.
  func signal() {
    pthread_mutex_lock(mutex)
    pthread_cond_broadcast(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Waits up to `seconds` of real time for a `signal()` unless `ready` already holds.
  ///
  /// - Returns: whether `ready` held when it returned.
  func wait(seconds: Double, until ready: (inout Value) -> Bool) -> Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    // The real wall clock: the condition's deadline is one of the kernel's, and the app's
    // `CLOCK_REALTIME` may read virtual time (`VirtualWorld`).
    let total = Double(RealClock.wallNanoseconds) / 1e9 + seconds
    var deadline = timespec()
    deadline.tv_sec = .init(total.rounded(.down))
    deadline.tv_nsec = .init((total - total.rounded(.down)) * 1e9)
    while !ready(&value) {
      if pthread_cond_timedwait(condition, mutex, &deadline) != 0 { return ready(&value) }
    }
    return true
  }
}
