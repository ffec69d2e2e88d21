/// When, relative to now, the app can have read a real clock for a deadline it schedules
/// now: the running job started `sinceJobStart` ago, the job that enqueued it
/// `sinceEnqueuerStart` ago (a sleep reads the clock in the job that schedules it, or in the
/// one before a hop), and whether the runtime's thread was off the CPU for a while in between
/// (`stalled`: descheduled by a loaded machine, or stopped on a page fault).
///
/// A stall splits the window in two: the app read the clock either before it — then the
/// deadline lies the duration it asked for beyond the job's start, give or take the few
/// microseconds of code in between — or after it, and then the deadline lies that far beyond
/// now. `VirtualDelay` tries both ends.
///
/// - Note: Isolation: a value.
struct ClockReadWindow: Sendable, Equatable {
  var sinceJobStart: Duration
  var sinceEnqueuerStart: Duration
  var stalled: Bool

  /// No window: a deadline scheduled from another thread, or a timer's own job.
  static let none = ClockReadWindow(sinceJobStart: .zero, sinceEnqueuerStart: .zero, stalled: false)
}
