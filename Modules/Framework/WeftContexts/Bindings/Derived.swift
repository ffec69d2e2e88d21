/// A value computed from a context's state and cached by state version.
///
/// ```swift
/// let total = context.derived { $0.lines.reduce(0) { $0 + $1.amount } }
/// total.value          // computes
/// total.value          // cached: same version
/// ```
///
/// - Complexity: `value` is O(1) when the version did not change since the last read, and
///   one computation otherwise.
/// - Note: Isolation: MainActor.
/// - Note: Allocations: the object; the computation's own, once per version read.
@MainActor
public final class Derived<Value> {
  private let currentVersion: () -> UInt64
  private let compute: () -> Value
  private var cache: (version: UInt64, value: Value)?

  /// How many times the value was computed (once per state version read).
  ///
  /// - Complexity: O(1).
  public private(set) var computeCount = 0

  init(version: @escaping () -> UInt64, compute: @escaping () -> Value) {
    self.currentVersion = version
    self.compute = compute
  }

  /// The value for the current state version.
  ///
  /// - Complexity: O(1) at a version already computed; one computation otherwise.
  public var value: Value {
    let version = currentVersion()
    if let cache, cache.version == version { return cache.value }
    let value = compute()
    cache = (version, value)
    computeCount += 1
    return value
  }
}
