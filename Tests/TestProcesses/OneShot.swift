import WeftCore

/// A value set once and awaited by any number of tasks: `wait()` suspends until
/// `fulfil(_:)`, or returns at once after it. Later `fulfil` calls are ignored.
///
/// - Complexity: O(1) per call, plus O(waiters) for the first `fulfil`.
/// - Note: Isolation: thread-safe (WeftCore's `Locked`); `fulfil` may run on any thread,
///   such as a `Process.terminationHandler`'s.
public final class OneShot<Value: Sendable>: Sendable {
  private let state = Locked<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>(
    (nil, []))

  public init() {}

  /// Sets the value and resumes every waiter, unless a value was already set.
  public func fulfil(_ value: Value) {
    let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
      guard state.value == nil else { return [] }
      state.value = value
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume(returning: value) }
  }

  /// The value, once it is set.
  public func wait() async -> Value {
    await withCheckedContinuation { continuation in
      let value = state.withLock { state -> Value? in
        if let value = state.value { return value }
        state.waiters.append(continuation)
        return nil
      }
      if let value { continuation.resume(returning: value) }
    }
  }
}
