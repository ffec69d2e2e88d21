import WeftCore

/// Why `settle()` or `advance(by:)` gave up.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and compare.
public enum SettleError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Work stayed in flight without any change for `after` of real time: something awaits
  /// an event that never comes.
  case stalled(inFlight: [String], after: Duration)
  /// More than `limit` sleepers were woken in one call: work keeps scheduling more work.
  case tooManyWakes(limit: Int, inFlight: [String])
  /// `advance(by:)` needs virtual time; the live configuration runs on the real clock.
  case realClock
  /// The task settling was cancelled while `inFlight` was still running: the app is not
  /// settled.
  case cancelled(inFlight: [String])

  public var description: String {
    switch self {
    case .stalled(let names, let after):
      "the app did not settle: \(names.joined(separator: ", ")) made no progress for \(after) "
        + "— a piece of work awaits something that never happens (a missing end, or a sleep "
        + "outside the simulation clock)"
    case .tooManyWakes(let limit, let names):
      "the app did not settle after waking \(limit) sleepers; still in flight: "
        + "\(names.joined(separator: ", ")) — work keeps rescheduling itself (clear the "
        + "network faults, or raise the limit)"
    case .realClock:
      "time cannot be advanced in the live configuration: it runs on the real clock"
    case .cancelled(let names):
      "settling was cancelled with work still in flight: \(names.joined(separator: ", "))"
    }
  }
}

/// Drives virtual time until the app is quiescent: the loop behind `AppRuntime.settle()`.
///
/// While work is in flight: if all of it is parked on the simulation clock, move the
/// `TestClock` to the earliest deadline and wake that one sleeper; otherwise wait for the
/// tracker's next change. Return when nothing is in flight. Without a test clock (the live
/// configuration) it only waits.
///
/// A watchdog on the real clock ends a settle that makes no progress for `stallTimeout`
/// with `SettleError.stalled` naming the work in flight — a diagnostic for a bookkeeping
/// bug, never a way of waiting. A settle never returns while work is in flight: it returns
/// when nothing is, or throws (stalled, too many wakes, or `cancelled` when its task is
/// cancelled — at once, naming the work still in flight).
///
/// - Complexity: O(w · s) for w wakes and s parked sleepers.
/// - Note: Isolation: any; one settle at a time per tracker.
/// - Note: Allocations: one watchdog task per call that finds work in flight.
public struct Settler: Sendable {
  /// The work tracker.
  public let tracker: WorkTracker
  /// The virtual clock, or nil on the real clock.
  public let clock: TestClock?
  /// The most sleepers one call wakes before giving up.
  public var wakeLimit = 1_000_000
  /// How long, in real time, work may stay in flight without any change.
  public var stallTimeout: Duration? = .seconds(60)

  /// Makes a settler.
  ///
  /// - Complexity: O(1).
  public init(tracker: WorkTracker, clock: TestClock?) {
    self.tracker = tracker
    self.clock = clock
  }

  /// Runs until nothing is in flight.
  ///
  /// When nothing is in flight on entry it returns at once, on the caller's isolation:
  /// a settle after a step that left no work behind (a plain commit) costs one lock — no hop
  /// off the caller's actor and back, no watchdog task.
  ///
  /// - Parameter isolation: where the nothing-in-flight check runs (the caller's actor);
  ///   the settling loop itself runs off it, on the global executor.
  /// - Throws: `SettleError.stalled`, `.tooManyWakes`, `.cancelled`; each names the work
  ///   still in flight.
  /// - Complexity: O(1).
  public func settle(isolation: isolated (any Actor)? = #isolation) async throws(SettleError) {
    if tracker.clearStallIfIdle() { return }
    try await settleInFlight()
  }

  /// `settle()`'s loop, once something is in flight.
  private func settleInFlight() async throws(SettleError) {
    try await watching { () async throws(SettleError) -> Void in
      var wakes = 0
      while true {
        let status = tracker.status
        if status.isIdle { return }
        try checkStall()
        try checkCancellation()
        if status.isWaitingForClock, let clock {
          if let next = status.nextDeadline, next > clock.now { clock.advance(to: next) }
          tracker.wakeFirst()
          wakes += 1
          if wakes > wakeLimit {
            throw .tooManyWakes(limit: wakeLimit, inFlight: tracker.inFlightNames)
          }
          continue
        }
        await tracker.waitForChange(since: status.generation)
      }
    }
  }

  /// Moves virtual time forward by `duration`, waking every sleeper due by then in order and
  /// letting what it wakes run until it waits for time again; never beyond the target.
  ///
  /// - Throws: `SettleError.realClock` without a test clock; `.stalled`; `.cancelled`.
  /// - Complexity: O(1).
  public func advance(by duration: Duration) async throws(SettleError) {
    guard let clock else { throw .realClock }
    let target = clock.now.advanced(by: duration)
    try await watching { () async throws(SettleError) -> Void in
      while true {
        let status = tracker.status
        try checkStall()
        try checkCancellation()
        if status.isIdle || status.isWaitingForClock {
          if let next = status.nextDeadline, next <= target {
            if next > clock.now { clock.advance(to: next) }
            tracker.wakeFirst()
            continue
          }
          if clock.now < target { clock.advance(to: target) }
          return
        }
        await tracker.waitForChange(since: status.generation)
      }
    }
  }

  /// A cancelled task's waits return at once: without this the loop would spin until the
  /// watchdog called it a stall.
  private func checkCancellation() throws(SettleError) {
    guard Task.isCancelled, !tracker.status.isIdle else { return }
    throw .cancelled(inFlight: tracker.inFlightNames)
  }

  private func checkStall() throws(SettleError) {
    guard tracker.isStalled else { return }
    throw .stalled(inFlight: tracker.inFlightNames, after: stallTimeout ?? .zero)
  }

  private func watching(
    _ body: () async throws(SettleError) -> Void
  ) async throws(SettleError) {
    tracker.clearStall()
    guard let stallTimeout else { return try await body() }
    let tracker = self.tracker
    let watchdog = Task {
      var last = tracker.status.generation
      while true {
        do { try await Task.sleep(for: stallTimeout) } catch { return }
        let now = tracker.status.generation
        if now == last, !tracker.status.isIdle {
          tracker.stall()
          return
        }
        last = now
      }
    }
    defer { watchdog.cancel() }
    try await body()
  }
}
