import WeftCore

/// A weak reference that can be captured by `@Sendable` closures and tasks.
///
/// Effect tasks hold their system through one of these, so a running effect never keeps a
/// system alive: dropping the system cancels its effects instead of leaking them.
struct WeakReference<Object: AnyObject & Sendable>: Sendable {
  weak var object: Object?

  init(_ object: Object) { self.object = object }

  /// Runs `body` with the object if it is still alive and returns its wake-ups; the strong
  /// reference ends when `body` returns, before the caller resumes anyone.
  func withObject(
    _ body: (Object) -> [CheckedContinuation<Void, Never>]
  ) -> [CheckedContinuation<Void, Never>] {
    guard let object else { return [] }
    return body(object)
  }
}

/// Holds a value until it is taken once.
///
/// An effect task takes its operation out of the box before running it, so the operation
/// (and everything it captured) is released as soon as it returns, before the task reports
/// that it finished.
final class TakeOnce<Value: Sendable>: Sendable {
  private let value: Locked<Value?>

  init(_ value: Value) { self.value = Locked(value) }

  /// The value, the first time; nil afterwards.
  func take() -> Value? { value.withLock { $0.take() } }
}
