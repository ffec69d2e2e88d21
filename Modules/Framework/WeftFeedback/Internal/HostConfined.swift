/// A reference that only code running on one actor, the host, may touch.
///
/// The feedback loop's engine (reducer state, feedback machines) is not `Sendable`; it lives
/// in one of these so that the system holding it can be shared, and every access proves it
/// runs on the host.
///
/// - Complexity: O(1) per access: one identity comparison.
/// - Note: Isolation: `withValue` must be called isolated to `host`; it traps otherwise.
/// - Note: Allocations: none per access.
final class HostConfined<Value: AnyObject>: @unchecked Sendable {
  // Why `@unchecked Sendable` is sound: `value` is a `let` whose members are read and written
  // only inside `withValue(isolation:_:)`. That method's `isolated` parameter makes the
  // compiler guarantee the caller runs on that actor's serial executor, and the precondition
  // proves the actor is `host` itself, so every access is serialized on `host`'s executor.
  // The reference never escapes `body` (internal discipline: callers use it synchronously).
  // The only other access is deinit, which runs when no other reference exists.
  let host: any Actor
  private let value: Value

  init(_ value: Value, host: any Actor) {
    self.value = value
    self.host = host
  }

  /// Runs `body` with the confined value; the caller must be isolated to `host`.
  func withValue<Result>(
    isolation: isolated (any Actor)?, _ body: (Value) throws -> Result
  ) rethrows -> Result {
    precondition(
      isolation === host,
      "A feedback system's engine was touched off its isolation (\(type(of: host))); "
        + "call it from code isolated to the system's host actor")
    return try body(value)
  }
}
