#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex (the same helper WeftPersistence, WeftFeedback and
/// WeftNetworking keep internally).
///
/// Why not `Synchronization.Mutex`: on Linux its lock is a futex inside the prebuilt
/// Synchronization library, which ThreadSanitizer cannot see, so every access made under it
/// is reported as a race. TSan intercepts `pthread_mutex_lock`, so with this lock a report
/// under `--sanitize=thread` is a real race.
///
/// `@unchecked Sendable` is sound: `value` is read and written only inside `withLock`,
/// between `pthread_mutex_lock` and `pthread_mutex_unlock` of the one mutex this object
/// owns; `Value` is `Sendable`, so what leaves the lock may cross threads; the mutex is
/// allocated and initialised once, never moved, and destroyed in `deinit`, when no thread
/// can hold a reference, let alone the lock.
///
/// - Complexity: O(1) plus the body, under one lock.
/// - Note: Isolation: thread-safe; never call `withLock` again from inside its body.
/// - Note: Allocations: the object and its mutex, once.
final class Locked<Value: Sendable>: @unchecked Sendable {
  private var value: Value
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

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
  @inline(__always)
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
