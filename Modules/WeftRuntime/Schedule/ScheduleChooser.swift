/// How the runtime picks among jobs that are ready at the same moment: in arrival order (the
/// default schedule), or by a seeded draw (an explored schedule).
///
/// A draw never reorders one serial lane: the MainActor's jobs keep their order, and a default
/// actor's jobs reach the runtime one at a time (the actor drains its own queue). What a draw
/// may reorder is what a multi-threaded pool could run in any order: jobs of different tasks
/// and actors, and timers that fall due at the same instant.
///
/// - Complexity: O(1) per draw.
/// - Note: Isolation: a value type; the runtime keeps one inside its lock.
/// - Note: Allocations: none.
public struct ScheduleChooser: Sendable, Equatable {
  /// The schedule seed, or `nil` for arrival order.
  public let seed: UInt64?
  private var state: UInt64

  /// Arrival order: the default schedule.
  public static let arrivalOrder = ScheduleChooser(seed: nil)

  /// A schedule fixed by `seed` (`nil`: arrival order).
  ///
  /// - Complexity: O(1).
  public init(seed: UInt64?) {
    self.seed = seed
    self.state = seed ?? 0
  }

  /// An index in `0..<count` (`count` > 0): 0 in arrival order, a seeded draw otherwise.
  ///
  /// - Complexity: O(1).
  public mutating func pick(among count: Int) -> Int {
    guard seed != nil, count > 1 else { return 0 }
    return Int(nextRandom() % UInt64(count))
  }

  /// SplitMix64: enough for schedule draws, and one word of state.
  private mutating func nextRandom() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
