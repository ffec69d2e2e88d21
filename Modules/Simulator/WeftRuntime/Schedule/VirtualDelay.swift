/// How far in virtual time a scheduled job waits, in nanoseconds.
///
/// The rule below applies only where the process's clock reads are real (no
/// CDeterministicWorld: Apple platforms, `WEFT_REAL_CLOCKS=1`); with virtual reads a deadline
/// is exact and `roundedUp(_:)` is all that is used.
///
/// A sleep given as a delay (`Task.sleep(nanoseconds:)` on some paths) waits exactly that
/// long. A sleep given as a deadline on a real clock (`Task.sleep(for:)`,
/// `ContinuousClock().sleep(until:)`, `SuspendingClock`) reaches the runtime as an instant of
/// *real* time, computed from the real clock some time earlier in the same job; the duration
/// the app asked for is not passed along. What the runtime knows is an interval that holds it:
/// at least the deadline minus the real time now, at most the deadline minus the real time
/// the job that enqueued the current one started (a sleep reads the clock, then hops once
/// to the clock's `sleep`). The delay is the **roundest whole millisecond** in that interval (a
/// multiple of 1 s before one of 500 ms, 100 ms, 50 ms, 10 ms, 5 ms, then the smallest; a
/// unit counts only when its multiple lies within half a unit above the low end), so
/// `Task.sleep(for: .milliseconds(300))` waits exactly 300 ms of virtual time even when the
/// thread was preempted between the app's read of the clock and the enqueue; a deadline with
/// no whole millisecond in its interval (a 1.5 ms sleep, a zero one) rounds up (2 ms, 1 ms),
/// and a deadline already past at the window's start runs at once. When the thread was off
/// the CPU inside the interval (`ClockReadWindow.stalled`), its width is the stall, not the
/// app's work, and when the app's read provably came before the stall, the delay is the round
/// duration at the interval's high end (`delay(left:window:)`).
///
/// - Complexity: O(1).
/// - Note: Isolation: pure functions.
enum VirtualDelay {
  /// The resolution of virtual time for deadlines on real clocks.
  static let resolution: UInt64 = 1_000_000

  /// The round units a duration is matched to, roundest first, in nanoseconds: 1 s, 500 ms,
  /// 100 ms, 50 ms, 10 ms, 5 ms.
  /// (A constant literal: the compiler emits it as a static object, with no allocation.)
  static let units: [UInt64] = [
    1_000_000_000, 500_000_000, 100_000_000, 50_000_000, 10_000_000, 5_000_000,
  ]

  /// `delay` in nanoseconds (0 for a clock whose durations are not `Swift.Duration`).
  static func exact<D: DurationProtocol>(_ delay: D) -> UInt64 {
    guard let duration = delay as? Duration else { return 0 }
    return nanoseconds(duration)
  }

  /// The virtual delay until `instant` of `clock`, read by the app within `window`.
  static func until<C: Clock>(
    _ instant: C.Instant, on clock: C, window: ClockReadWindow = .none
  ) -> UInt64 {
    guard let left = clock.now.duration(to: instant) as? Duration else { return 0 }
    return delay(left: left, window: window)
  }

  /// The virtual delay for a deadline `left` ahead of now, read by the app within `window`:
  /// the roundest whole millisecond between `left` and `left` plus the window (the rule
  /// above), unless the thread stalled in the window *after* the app's read. Such a stall
  /// lowers `left` by its length: a 100 ms sleep stalled 60 ms reads 40…100 ms, where the
  /// rule finds 50.
  ///
  /// Where in the window the stall fell is not known, but the app's code between its read
  /// and the schedule ran within `window.cpu`. So when the rule's result lies further than
  /// that above `left`, the read came before the stall, near the start of the running job
  /// (or of its enqueuer); the duration counted from that start wins when it is a multiple
  /// of a larger unit than the rule's.
  ///
  /// - Complexity: O(1); no allocation (the gate counts them, and a stall must not change
  ///   them).
  static func delay(left: Duration, window: ClockReadWindow) -> UInt64 {
    let widest = left + max(window.sinceEnqueuerStart, window.sinceJobStart, .zero)
    let ruled = roundest(from: left, to: widest)
    guard window.stalled else { return ruled }
    let slack = nanoseconds(max(window.cpu, .zero)) &+ slackMargin
    // The low end is round within the code the thread ran: the read came after any stall.
    if ruled <= nanoseconds(left) &+ slack { return ruled }
    var best = (value: ruled, unit: unit(of: ruled))
    if let job = snapDown(left + max(window.sinceJobStart, .zero), within: slack),
      job.unit > best.unit
    {
      best = job
    }
    if let enqueuer = snapDown(widest, within: slack), enqueuer.unit > best.unit {
      best = enqueuer
    }
    return best.value
  }

  /// Added to the CPU time of the window when matching its ends to round durations: the
  /// clock reads themselves and the rounding of the CPU clock.
  static let slackMargin: UInt64 = 100_000

  /// The largest unit of 5 ms or more that `value` is a multiple of (0 for none).
  static func unit(of value: UInt64) -> UInt64 {
    guard value > 0 else { return 0 }
    return units.first { value % $0 == 0 } ?? 0
  }

  /// The multiple of the largest unit of 5 ms or more at or below `end` by at most `slack`
  /// nanoseconds, if any.
  static func snapDown(_ end: Duration, within slack: UInt64) -> (value: UInt64, unit: UInt64)? {
    guard end > .zero else { return nil }
    let point = nanoseconds(end)
    for unit in units {
      let below = point / unit * unit
      if below > 0, point - below <= slack { return (below, unit) }
    }
    return nil
  }

  /// The roundest whole millisecond in `low...high` (nanoseconds, 0 when negative), or `low`
  /// rounded up to a millisecond when the interval holds none.
  static func roundest(from low: Duration, to high: Duration) -> UInt64 {
    // A deadline past even at the window's start runs now; otherwise the app asked for a
    // positive delay (a zero or sub-millisecond one included), at least a millisecond.
    guard high > .zero else { return 0 }
    let low = max(nanoseconds(low), 1)
    let high = max(nanoseconds(high), low)
    let (roundedUp, overflow) = low.addingReportingOverflow(resolution - 1)
    if overflow { return .max }
    let first = roundedUp / resolution * resolution
    guard first <= high else { return first }
    // A unit counts when its first multiple at or above `low` lies within half a unit of it:
    // preemption lowers `low` below the duration asked for by less than that, so a 100 ms
    // sleep preempted 10 ms (89.5…100.2) is still 100, a 1 s one preempted 200 ms still 1 s,
    // while a wide window does not pull a short sleep up to a round number far above it
    // (5 µs is 1 ms, not 10 ms; 14.2…20.3 is 15, not 20).
    for unit in units {
      let (upper, overflow) = low.addingReportingOverflow(unit - 1)
      if overflow { continue }
      let candidate = upper / unit * unit
      if candidate <= high, (candidate - low) * 2 <= unit { return candidate }
    }
    return first
  }

  /// `duration` in nanoseconds rounded up to the next whole one (a deadline read from a
  /// virtual clock is exact to the attosecond it was computed with), 0 when negative.
  static func roundedUp(_ duration: Duration) -> UInt64 {
    let whole = nanoseconds(duration)
    guard duration > .zero, whole < .max else { return whole }
    return Duration.nanoseconds(Int64(clamping: whole)) < duration ? whole + 1 : whole
  }

  /// `duration` in whole nanoseconds, 0 when negative, saturating.
  static func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return .max }
    let fraction = attoseconds / 1_000_000_000
    return fraction >= 0 ? whole &+ UInt64(fraction) : whole &- UInt64(-fraction)
  }
}
