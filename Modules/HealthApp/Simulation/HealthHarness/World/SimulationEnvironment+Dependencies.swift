import Foundation
import WeftDependencies
import WeftNetworking

extension SimulationEnvironment {
  /// The simulated world as dependency overrides: the clocks are its `RuntimeClock`
  /// (virtual time on the deterministic runtime), the date is `start` plus the virtual time
  /// elapsed, ids come from `SeededIDs` and random numbers from `SeededRandom`, both seeded
  /// from `seed`. `AppDependencies.simulated(in:seed:…)` takes its clock, date, ids and
  /// the database's jitter from these, so the simulated configuration is an override set of
  /// the same system the live one reads its defaults from.
  ///
  /// ```swift
  /// var values = DependencyValues.current
  /// environment.overrideDependencies(&values, seed: 7)
  /// let store = withDependencies(values) { makeStore() }   // its effects are simulated
  /// ```
  ///
  /// Coherent with the runtime: under weft-sim, `Date()`, `UUID()` and the system's random
  /// numbers already repeat from run to run (WeftRuntime answers the clock and entropy
  /// reads), so code that reads a live default instead of these is deterministic too; these
  /// add the simulated calendar (`start`) and ids that do not depend on how many other
  /// draws the process made.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: any; the values are thread-safe.
  /// - Note: Allocations: the id and random generators and their closures.
  public func overrideDependencies(_ values: inout DependencyValues, seed: UInt64) {
    values.continuousClock = clock
    values.suspendingClock = clock
    values.date = DateGenerator(now)
    let ids = SeededIDs(seed: seed ^ 0x6964_7300)
    values.uuid = UUIDGenerator { ids.next() }
    values.random = RandomSource(SeededRandom(seed: seed ^ 0x6F75_7462_6F78))
  }
}
