import Synchronization

/// The highest attempt number that reached the transport, so an error thrown from outside
/// the retry loop (a cancelled backoff) still names the attempt it followed.
///
/// - Complexity: O(1) (a compare-exchange loop that ends when the value is at least `attempt`).
/// - Note: Isolation: thread-safe (an atomic).
/// - Note: Allocations: one object per request.
final class AttemptCounter: Sendable {
  private let value = Atomic<Int>(0)

  func record(_ attempt: Int) { _ = value.max(attempt, ordering: .relaxed) }

  var last: Int { value.load(ordering: .relaxed) }
}
