/// The result of a ``RatioProbe``: the median ratio of workload to floor CPU time over the
/// rounds, with its range.
///
/// - Complexity: Making one from rounds is O(r log r), r = rounds (a sort).
/// - Note: Isolation: a value; `Sendable`.
public struct RatioMeasurement: Sendable, Equatable, Codable {
  /// One interleaved round: CPU nanoseconds of the workload and of the floor.
  public struct Round: Sendable, Equatable {
    /// CPU nanoseconds the workload took.
    public var workload: UInt64
    /// CPU nanoseconds the floor took.
    public var floor: UInt64

    /// Makes a round from its two timings.
    public init(workload: UInt64, floor: UInt64) {
      self.workload = workload
      self.floor = floor
    }

    /// Workload over floor; a floor of 0 ns counts as 1 ns so the ratio stays finite.
    public var ratio: Double { Double(workload) / Double(max(floor, 1)) }
  }

  /// Median of the per-round ratios: the figure the gate compares.
  public var median: Double
  /// Smallest per-round ratio.
  public var minimum: Double
  /// Largest per-round ratio.
  public var maximum: Double
  /// Number of measured rounds.
  public var rounds: Int
  /// Median workload CPU time of a round, in nanoseconds.
  public var workloadNanoseconds: UInt64
  /// Median floor CPU time of a round, in nanoseconds.
  public var floorNanoseconds: UInt64

  /// Makes a measurement from its figures.
  public init(
    median: Double, minimum: Double, maximum: Double, rounds: Int,
    workloadNanoseconds: UInt64 = 0, floorNanoseconds: UInt64 = 0
  ) {
    self.median = median
    self.minimum = minimum
    self.maximum = maximum
    self.rounds = rounds
    self.workloadNanoseconds = workloadNanoseconds
    self.floorNanoseconds = floorNanoseconds
  }

  /// A measurement of exactly `ratio` (tests and recorded baselines).
  public init(ratio: Double) {
    self.init(median: ratio, minimum: ratio, maximum: ratio, rounds: 1)
  }

  /// Summarizes measured rounds; an empty list gives a ratio of 1.
  ///
  /// - Complexity: O(r log r), r = `rounds.count`.
  public init(rounds: [Round]) {
    guard !rounds.isEmpty else {
      self.init(ratio: 1)
      return
    }
    let ratios = rounds.map(\.ratio).sorted()
    self.init(
      median: Self.median(ratios), minimum: ratios[0], maximum: ratios[ratios.count - 1],
      rounds: rounds.count,
      workloadNanoseconds: Self.median(rounds.map(\.workload).sorted()),
      floorNanoseconds: Self.median(rounds.map(\.floor).sorted()))
  }

  /// The range of the rounds relative to the median: `(maximum - minimum) / median`; 0.04
  /// means the rounds spread over 4% of the median.
  public var spread: Double { median > 0 ? (maximum - minimum) / median : 0 }

  static func median(_ sorted: [Double]) -> Double {
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  static func median(_ sorted: [UInt64]) -> UInt64 {
    let middle = sorted.count / 2
    guard sorted.count.isMultiple(of: 2) else { return sorted[middle] }
    let low = sorted[middle - 1]
    return low + (sorted[middle] - low) / 2
  }
}
