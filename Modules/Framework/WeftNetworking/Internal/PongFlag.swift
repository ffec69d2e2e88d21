import Synchronization

/// A flag set once, from any thread: "the pong arrived".
///
/// - Complexity: O(1).
/// - Note: Isolation: thread-safe (an atomic).
/// - Note: Allocations: one object per ping.
final class PongFlag: Sendable {
  private let value = Atomic<Bool>(false)

  func set() { value.store(true, ordering: .releasing) }

  var isSet: Bool { value.load(ordering: .acquiring) }
}
