/// How the runtime picks among jobs that are ready at the same moment: in arrival order (the
/// default schedule), by a seeded draw (an explored schedule), or by a script of decisions
/// (a recorded schedule replayed, a prefix that a systematic search forces).
///
/// A draw never reorders one serial lane: the MainActor's jobs keep their order, and a default
/// actor's jobs reach the runtime one at a time (the actor drains its own queue). What a draw
/// may reorder is what a multi-threaded pool could run in any order: jobs of different tasks
/// and actors, and timers that fall due at the same instant.
///
/// A *decision* is a pick among two or more candidates; choice 0 is arrival order, any other
/// choice a *deviation* from it. With `recording`, every decision is kept (`decisions`), which
/// is what a schedule string is made of (`Schedule`).
///
/// - Complexity: O(1) per draw (amortized, when recording).
/// - Note: Isolation: a value type; the runtime keeps one inside its lock.
/// - Note: Allocations: none, unless recording or scripted.
public struct ScheduleChooser: Sendable, Equatable {
  /// One pick among `count` candidates.
  public struct Decision: Sendable, Hashable, Codable {
    /// The candidate taken (0: arrival order).
    public var choice: UInt32
    /// How many candidates there were (at least 2).
    public var count: UInt32

    /// Makes a decision.
    ///
    /// - Complexity: O(1).
    public init(choice: UInt32, count: UInt32) {
      self.choice = choice
      self.count = count
    }
  }

  /// The schedule seed, or `nil` for arrival order (also what picks after a script ends).
  public let seed: UInt64?
  private var state: UInt64
  /// Choices to take first, decision by decision (a replayed or forced prefix); a count of 0
  /// fits any number of candidates.
  private var script: [Decision] = []
  private var position = 0
  /// Whether every decision is kept in `decisions`.
  public let recording: Bool
  /// The decisions made so far, when recording.
  public private(set) var decisions: [Decision] = []
  /// The index of the first scripted decision that did not fit the run (another number of
  /// candidates: the app changed since the schedule was recorded), if any; from there on the
  /// chooser picks by its seed (or arrival order).
  public private(set) var divergence: Int?

  /// Arrival order: the default schedule.
  public static let arrivalOrder = ScheduleChooser(seed: nil)

  /// A schedule fixed by `seed` (`nil`: arrival order).
  ///
  /// - Complexity: O(1).
  public init(seed: UInt64?) {
    self.init(seed: seed, script: [], recording: false)
  }

  /// A schedule that takes `script`'s choices first, then picks by `seed` (`nil`: arrival
  /// order), keeping every decision when `recording`.
  ///
  /// - Complexity: O(1).
  public init(seed: UInt64?, script: [Decision], recording: Bool) {
    self.seed = seed
    self.state = seed ?? 0
    self.script = script
    self.recording = recording
  }

  /// Whether a pick can be anything but arrival order (the queue's fast path skips it when
  /// not, and nothing is recorded).
  public var draws: Bool { seed != nil || !script.isEmpty || recording }

  /// An index in `0..<count` (`count` > 0): the script's choice while it lasts and fits, then
  /// 0 in arrival order or a seeded draw.
  ///
  /// - Complexity: O(1) amortized.
  public mutating func pick(among count: Int) -> Int {
    guard count > 1 else { return 0 }
    var choice = -1
    if position < script.count {
      let scripted = script[position]
      position += 1
      let fits =
        (scripted.count == 0 || scripted.count == UInt32(clamping: count))
        && Int(scripted.choice) < count
      if divergence == nil, fits {
        choice = Int(scripted.choice)
      } else if divergence == nil {
        divergence = decisions.count
        position = script.count
      }
    }
    if choice < 0 {
      choice = seed == nil ? 0 : Int(nextRandom() % UInt64(count))
    }
    if recording {
      decisions.append(Decision(choice: UInt32(choice), count: UInt32(clamping: count)))
    }
    return choice
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
