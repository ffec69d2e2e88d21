/// How far in virtual time a scheduled job waits, in nanoseconds.
///
/// A sleep given as a delay (`Task.sleep(nanoseconds:)`) waits exactly that long. A sleep
/// given as a deadline on a real clock (`Task.sleep(for:)`, `ContinuousClock().sleep(until:)`,
/// `SuspendingClock`) reaches the runtime as an instant of *real* time, computed a few
/// microseconds before; the delay is that instant minus the real clock's time now, rounded
/// **up to a whole millisecond** so that the microseconds spent between the app's `now` and
/// the enqueue do not change it: `Task.sleep(for: .milliseconds(300))` waits exactly 300 ms of
/// virtual time, a 1.5 ms sleep waits 2 ms, and a deadline already past runs at once.
///
/// - Complexity: O(1).
/// - Note: Isolation: pure functions.
enum VirtualDelay {
  /// The resolution of virtual time for deadlines on real clocks.
  static let resolution: UInt64 = 1_000_000

  /// `delay` in nanoseconds (0 for a clock whose durations are not `Swift.Duration`).
  static func exact<D: DurationProtocol>(_ delay: D) -> UInt64 {
    guard let duration = delay as? Duration else { return 0 }
    return nanoseconds(duration)
  }

  /// The virtual delay until `instant` of `clock`, rounded up to `resolution`.
  static func until<C: Clock>(_ instant: C.Instant, on clock: C) -> UInt64 {
    guard let duration = clock.now.duration(to: instant) as? Duration else { return 0 }
    let exact = nanoseconds(duration)
    let (rounded, overflow) = exact.addingReportingOverflow(resolution - 1)
    return overflow ? .max : rounded / resolution * resolution
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
