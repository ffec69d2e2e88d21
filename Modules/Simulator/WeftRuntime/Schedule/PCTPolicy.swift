/// Probabilistic concurrency testing (PCT, Burckhardt et al., ASPLOS 2010) over the runtime's
/// jobs: every task gets a random priority when it is first seen among the ready jobs, the
/// ready job of the highest priority runs, and at `depth − 1` change points drawn among the
/// run's first `steps` decisions the task about to run drops below every other (the first
/// change point's to priority 1, the next's to 2, …). A bug that needs `depth` ordering
/// constraints among n decisions and k tasks is found with probability at least
/// 1/(n·k^(depth−1)) per schedule.
///
/// A *task* is the job's key (`RunQueue` gives a task's id; a job of no task, such as a
/// default actor's drain job, is a task of its own). Everything is drawn from the seed, in the
/// order keys are first seen, so a seed replays its schedule.
///
/// ```swift
/// var pct = PCTPolicy(seed: 7, depth: 3, steps: 40)
/// let index = pct.pick(among: 3, decision: 0) { [10, 11, 12][$0] }   // a task's job
/// ```
///
/// - Complexity: O(c) per pick, c = candidates; O(k) memory, k = tasks seen.
/// - Note: Isolation: a value type inside `ScheduleChooser`.
public struct PCTPolicy: Sendable, Equatable {
  /// Where a PCT schedule comes from: its bug depth and the decisions its change points are
  /// drawn among (the arrival-order run's count).
  public struct Parameters: Sendable, Hashable, Codable {
    /// The bug depth d: d − 1 change points (1 or more).
    public var depth: Int
    /// The decisions the change points are drawn among (1 or more).
    public var steps: Int

    /// Makes parameters; `depth` and `steps` are raised to at least 1.
    ///
    /// - Complexity: O(1).
    public init(depth: Int, steps: Int) {
      self.depth = max(1, depth)
      self.steps = max(1, steps)
    }

    /// `pct:DEPTH:STEPS:SEED`, what `--schedule-seed` takes to replay one PCT schedule.
    ///
    /// - Complexity: O(1).
    public func argument(seed: UInt64) -> String { "pct:\(depth):\(steps):\(seed)" }

    /// Reads `pct:DEPTH:STEPS:SEED`; `nil` when `text` is not one.
    ///
    /// - Complexity: O(n), n = text length.
    public static func parse(_ text: String) -> (Parameters, seed: UInt64)? {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 4, parts[0] == "pct", let depth = Int(parts[1]),
        (1...64).contains(depth),
        let steps = Int(parts[2]), (1...50_000_000).contains(steps), let seed = UInt64(parts[3]),
        seed > 0
      else { return nil }
      return (Parameters(depth: depth, steps: steps), seed)
    }
  }

  public let parameters: Parameters
  private var state: UInt64
  /// The decisions at which the running task's priority drops, in order.
  private let changePoints: [Int]
  private var priorities: [UInt64: UInt64] = [:]

  /// A PCT schedule drawn from `seed`.
  ///
  /// - Complexity: O(d).
  public init(seed: UInt64, depth: Int, steps: Int) {
    parameters = Parameters(depth: depth, steps: steps)
    state = seed ^ 0x5043_5453_4348_4544  // "PCTSCHED": not the random strategy's stream
    var points: [Int] = []
    var random = SplitMix(state: state)
    for _ in 1..<parameters.depth {
      points.append(Int(random.next() % UInt64(parameters.steps)))
    }
    state = random.state
    changePoints = points
  }

  /// The candidate to run at `decision` (counted from 0 over the run) among `count`, each
  /// known by `key(index)`.
  ///
  /// - Complexity: O(c).
  public mutating func pick(among count: Int, decision: Int, key: (Int) -> UInt64) -> Int {
    var best = highest(among: count, key: key)
    for (number, point) in changePoints.enumerated() where point == decision {
      priorities[key(best)] = UInt64(number + 1)
      best = highest(among: count, key: key)
    }
    return best
  }

  private mutating func highest(among count: Int, key: (Int) -> UInt64) -> Int {
    var best = 0
    var bestPriority: UInt64 = 0
    for index in 0..<count {
      let priority = priority(of: key(index))
      if index == 0 || priority > bestPriority {
        best = index
        bestPriority = priority
      }
    }
    return best
  }

  /// A first-seen task's priority: above every changed one (`depth` and up), at random.
  private mutating func priority(of key: UInt64) -> UInt64 {
    if let known = priorities[key] { return known }
    var random = SplitMix(state: state)
    let drawn = UInt64(parameters.depth) + (random.next() >> 2)
    state = random.state
    priorities[key] = drawn
    return drawn
  }
}

/// SplitMix64: enough for schedule draws, and one word of state.
struct SplitMix: Sendable, Equatable {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
