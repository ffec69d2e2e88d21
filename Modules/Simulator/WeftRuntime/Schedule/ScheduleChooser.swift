/// How the runtime picks among jobs that are ready at the same moment: in arrival order (the
/// default schedule), by a seeded draw (an explored schedule), by task priorities (`PCTPolicy`,
/// seeded too), or by a script of decisions (a recorded schedule replayed, a prefix that a
/// systematic search forces).
///
/// A draw never reorders one serial lane: the MainActor's jobs keep their order, and a default
/// actor's jobs reach the runtime one at a time (the actor drains its own queue). What a draw
/// may reorder is what a multi-threaded pool could run in any order: jobs of different tasks
/// and actors, and timers that fall due at the same instant.
///
/// A *decision* is a pick among two or more candidates; choice 0 is arrival order, any other
/// choice a *deviation* from it. A decision's *default* goes on with what ran last: the first
/// candidate the previous job enqueued (its task going on after a hop or a yield, or a task
/// it started), or arrival order when there is none; any other choice is a *preemption*
/// (`Decision.isPreemption`), what the exhaustive walk bounds. With `recording`,
/// every decision is kept (`decisions`), which is what a schedule string is made of
/// (`ScheduleString`).
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
    /// Bit i set: candidate i (i < 64) was enqueued by the job that ran last — running it
    /// goes on with what just ran. Recorded, not part of a schedule string.
    public var continuing: UInt64

    /// Makes a decision.
    ///
    /// - Complexity: O(1).
    public init(choice: UInt32, count: UInt32, continuing: UInt64 = 0) {
      self.choice = choice
      self.count = count
      self.continuing = continuing
    }

    /// The choice that goes on with what ran last: the first candidate the last job
    /// enqueued, or 0 (arrival order) when none was.
    public var defaultChoice: UInt32 {
      continuing == 0 ? 0 : UInt32(continuing.trailingZeroBitCount)
    }

    /// Whether taking `choice` here is a preemption: not the default choice.
    ///
    /// - Complexity: O(1).
    public func isPreemption(_ choice: UInt32) -> Bool { choice != defaultChoice }

    /// Whether this decision's choice is a preemption.
    public var isPreemption: Bool { isPreemption(choice) }
  }

  /// The schedule seed, or `nil` for arrival order (also what picks after a script ends).
  public let seed: UInt64?
  private var state: UInt64
  /// Task priorities that pick instead of a uniform draw (with a seed).
  public private(set) var pct: PCTPolicy?
  /// Decisions made so far (recorded or not).
  public private(set) var made = 0
  /// Whether a decision past the script takes its default choice (goes on with what ran
  /// last) rather than arrival order: the exhaustive walk's schedules.
  public private(set) var goesOn = false
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

  /// Takes `script`'s choices, then every decision's default (`Decision.defaultChoice`: on
  /// with what ran last), recording: a schedule of the exhaustive walk.
  ///
  /// - Complexity: O(1).
  public init(goingOnAfter script: [Decision]) {
    self.init(seed: nil, script: script, recording: true)
    goesOn = true
  }

  /// A PCT schedule (`PCTPolicy`) of `seed`, after `script`'s choices, recording or not.
  ///
  /// - Complexity: O(d), d = depth.
  public init(
    pct parameters: PCTPolicy.Parameters, seed: UInt64, script: [Decision] = [],
    recording: Bool = false
  ) {
    self.init(seed: seed, script: script, recording: recording)
    pct = PCTPolicy(seed: seed, depth: parameters.depth, steps: parameters.steps)
  }

  /// Whether a pick can be anything but arrival order (the queue's fast path skips it when
  /// not, and nothing is recorded).
  public var draws: Bool { seed != nil || !script.isEmpty || recording }

  /// Whether picks read the candidates' keys (PCT's tasks).
  public var usesKeys: Bool { pct != nil }

  /// An index in `0..<count` (`count` > 0), candidates known by index only.
  ///
  /// - Complexity: O(1) amortized.
  public mutating func pick(among count: Int) -> Int {
    pick(among: count, key: { UInt64($0) }, continuing: { _ in false })
  }

  /// An index in `0..<count` (`count` > 0): the script's choice while it lasts and fits, then
  /// 0 in arrival order, a seeded draw, or PCT's pick by `key` (the candidate's task).
  /// `continuing(i)`: candidate i was enqueued by the job that ran last (recorded, for
  /// counting preemptions).
  ///
  /// - Complexity: O(1) amortized; O(c) with PCT or when recording, c = `count`.
  public mutating func pick(
    among count: Int, key: (Int) -> UInt64, continuing: (Int) -> Bool
  ) -> Int {
    guard count > 1 else { return 0 }
    defer { made += 1 }
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
    var mask: UInt64 = 0
    if recording {
      for index in 0..<min(count, 64) where continuing(index) { mask |= 1 << UInt64(index) }
    }
    if choice < 0 {
      if let picked = pct?.pick(among: count, decision: made, key: key) {
        choice = picked
      } else if goesOn {
        choice = Int(Decision(choice: 0, count: 0, continuing: mask).defaultChoice)
      } else {
        choice = seed == nil ? 0 : Int(nextRandom() % UInt64(count))
      }
    }
    if recording {
      decisions.append(
        Decision(choice: UInt32(choice), count: UInt32(clamping: count), continuing: mask))
    }
    return choice
  }

  private mutating func nextRandom() -> UInt64 {
    var random = SplitMix(state: state)
    defer { state = random.state }
    return random.next()
  }
}
