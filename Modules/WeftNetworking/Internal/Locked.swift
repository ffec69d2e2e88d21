import Synchronization

/// A value behind a `Mutex`, in a class so that copyable types (structs conforming to
/// protocols) can share it — `Mutex` itself is not copyable.
///
/// - Complexity: O(1) plus the body, under one uncontended lock.
/// - Note: Isolation: thread-safe.
/// - Note: Allocations: one object.
final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) { mutex = Mutex(value) }

  func withLock<Result>(
    _ body: (inout sending Value) throws -> sending Result
  ) rethrows
    -> sending Result
  {
    try mutex.withLock(body)
  }
}
