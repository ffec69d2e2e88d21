/// When, relative to now, the app can have read a real clock for a deadline it schedules
/// now: the running job started `sinceJobStart` ago, the job that enqueued it
/// `sinceEnqueuerStart` ago (a sleep reads the clock in the job that schedules it, or in the
/// one before a hop), and whether the runtime's thread was off the CPU for a while in between
/// (`stalled`: descheduled by a loaded machine, or stopped on a page fault), and the CPU time
/// it used meanwhile (`cpu`, from shortly before the job's start: a bound on the app's code
/// between its read of the clock and the schedule, microseconds in a release build, up to a
/// millisecond under the thread sanitizer).
///
/// A stall splits the window in two: the app read the clock either after it — then the
/// deadline lies the duration it asked for beyond now, give or take `cpu` — or before it,
/// and then it lies that far beyond the job's start. `VirtualDelay` tells them apart.
///
/// - Note: Isolation: a value.
struct ClockReadWindow: Sendable, Equatable {
  var sinceJobStart: Duration
  var sinceEnqueuerStart: Duration
  var stalled: Bool
  var cpu: Duration = .zero

  /// No window: a deadline scheduled from another thread, or a timer's own job.
  static let none = ClockReadWindow(
    sinceJobStart: .zero, sinceEnqueuerStart: .zero, stalled: false)
}
