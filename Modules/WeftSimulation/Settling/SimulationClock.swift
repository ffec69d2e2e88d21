import WeftCore

/// The clock the simulated app sleeps on: virtual time from a WeftCore `TestClock`, with
/// every sleep parked in the `WorkTracker` so the settler knows the app is waiting for time
/// and wakes sleepers one at a time, in a deterministic order.
///
/// Pass it wherever the app takes a clock (the HTTP client's retries and the simulated
/// backend's latency, the sync engine's backoff, the realtime connection's reconnect delay).
/// Time moves only when the settler or a test advances `testClock`.
///
/// ```swift
/// let clock = SimulationClock(testClock: TestClock(), tracker: tracker)
/// try await clock.sleep(for: .seconds(2))   // parked until the settler reaches t+2s
/// ```
///
/// > Important: Only work announced to the tracker may sleep on this clock: a sleeper
/// > outside any piece of work would make the settler believe everything waits for time.
///
/// - Complexity: `sleep` is O(s), s = parked sleepers; `now` is one lock.
/// - Note: Isolation: thread-safe; `Sendable`.
/// - Note: Allocations: one continuation per sleep.
public final class SimulationClock: Clock, Sendable {
  /// Durations are Swift's.
  public typealias Duration = Swift.Duration
  /// Instants are the test clock's.
  public typealias Instant = TestClock.Instant

  /// The virtual time source.
  public let testClock: TestClock
  /// Where sleeps are parked.
  public let tracker: WorkTracker

  /// Makes a clock over `testClock` parking in `tracker`.
  ///
  /// - Complexity: O(1).
  public init(testClock: TestClock, tracker: WorkTracker) {
    self.testClock = testClock
    self.tracker = tracker
  }

  /// The virtual time now.
  public var now: Instant { testClock.now }

  /// Zero: virtual time is exact.
  public var minimumResolution: Duration { .zero }

  /// Parks until the settler wakes this sleeper at `deadline`; returns at once for a past
  /// deadline.
  ///
  /// - Throws: `CancellationError` when the task is cancelled.
  /// - Complexity: O(1).
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    guard deadline > testClock.now else { return }
    try await tracker.park(until: deadline)
  }
}
