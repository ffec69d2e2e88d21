import Synchronization

/// Exact counts of what a `Database` did since it was opened: the numbers the performance
/// gate compares exactly (a regression is any increase).
///
/// - Note: Isolation: a `Sendable` value, read with `Database.statistics`.
public struct DatabaseStatistics: Sendable, Equatable {
  /// SQL statements executed (each execution of a cached statement counts once), including
  /// `BEGIN`/`COMMIT` and migrations.
  public var statements: UInt64
  /// Write transactions committed.
  public var commits: UInt64
  /// Write transactions rolled back (the body threw, or the commit failed).
  public var rollbacks: UInt64
  /// Fetches run by observations (initial fetches included).
  public var observationFetches: UInt64
  /// Values delivered to observation streams.
  public var observationDeliveries: UInt64
}

/// The atomic counters behind `DatabaseStatistics`.
///
/// - Note: Isolation: thread-safe (relaxed atomics; counts are exact, ordering is not).
/// - Note: Allocations: none after init.
final class StatisticsCounters: Sendable {
  let statements = Atomic<UInt64>(0)
  let commits = Atomic<UInt64>(0)
  let rollbacks = Atomic<UInt64>(0)
  let observationFetches = Atomic<UInt64>(0)
  let observationDeliveries = Atomic<UInt64>(0)

  var snapshot: DatabaseStatistics {
    DatabaseStatistics(
      statements: statements.load(ordering: .relaxed),
      commits: commits.load(ordering: .relaxed),
      rollbacks: rollbacks.load(ordering: .relaxed),
      observationFetches: observationFetches.load(ordering: .relaxed),
      observationDeliveries: observationDeliveries.load(ordering: .relaxed))
  }
}
