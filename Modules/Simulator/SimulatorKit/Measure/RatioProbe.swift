import SimulatorGate

/// Measures how much more CPU time a workload takes than a floor doing the same shape of work —
/// the fan-out against a plain closure loop over the same number of subscribers — in
/// interleaved rounds, and reports the median ratio.
///
/// ```swift
/// let probe = RatioProbe(rounds: 15)
/// let measured = probe.measure(
///   workload: { commitOneChange(to: cell) },          // fan-out to 100,000 subscribers
///   floor: { for callback in callbacks { callback(value) } })  // the same 100,000, bare
/// measured.median  // e.g. 1.42
/// ```
///
/// Each round runs both closures once, alternating which goes first (ABBA), so drift in
/// frequency or cache state lands on both sides. A ratio of two CPU times measured on the same
/// thread moments apart survives a slower or busier machine; wall time does not (see
/// docs/simulator-report.md, "The performance gate").
///
/// - Complexity: `warmupRounds + rounds` calls of each closure, plus four clock reads a round.
/// - Note: Isolation: runs both closures synchronously on the calling thread; with the default
///   ``CPUClock/thread`` clock, work they push to other threads is not counted.
/// - Note: Allocations: one array of `rounds` ratios.
public struct RatioProbe: Sendable {
  /// Measured rounds (at least 1); odd counts give a true middle value.
  public var rounds: Int
  /// Rounds run first and thrown away, so caches and lazily built state are warm.
  public var warmupRounds: Int
  /// Where CPU time is read.
  public var clock: CPUClock

  /// Makes a probe.
  ///
  /// - Parameters:
  ///   - rounds: measured rounds, 15 by default.
  ///   - warmupRounds: discarded rounds before them, 2 by default.
  ///   - clock: the CPU clock, the calling thread's by default.
  public init(rounds: Int = 15, warmupRounds: Int = 2, clock: CPUClock = .thread) {
    self.rounds = max(1, rounds)
    self.warmupRounds = max(0, warmupRounds)
    self.clock = clock
  }

  /// Runs `workload` and `floor` in interleaved rounds and returns the median ratio of their
  /// CPU times.
  ///
  /// - Complexity: `warmupRounds + rounds` calls of each closure.
  public func measure(workload: () -> Void, floor: () -> Void) -> RatioMeasurement {
    for round in 0..<warmupRounds { _ = timeRound(round, workload: workload, floor: floor) }
    var samples: [RatioMeasurement.Round] = []
    samples.reserveCapacity(rounds)
    for round in 0..<rounds {
      samples.append(timeRound(round, workload: workload, floor: floor))
    }
    return RatioMeasurement(rounds: samples)
  }

  private func timeRound(
    _ round: Int, workload: () -> Void, floor: () -> Void
  )
    -> RatioMeasurement.Round
  {
    if round.isMultiple(of: 2) {
      let workloadTime = time(workload)
      return RatioMeasurement.Round(workload: workloadTime, floor: time(floor))
    } else {
      let floorTime = time(floor)
      return RatioMeasurement.Round(workload: time(workload), floor: floorTime)
    }
  }

  private func time(_ body: () -> Void) -> UInt64 {
    let start = clock.now()
    body()
    let end = clock.now()
    return end >= start ? end - start : 0
  }
}
