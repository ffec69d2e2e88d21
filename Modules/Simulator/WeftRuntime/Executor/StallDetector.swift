#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Notices when the runtime's thread was off the CPU: real time that passed while the thread
/// used none. It samples the thread's CPU clock at the start of a job at most once per
/// `interval` of real time (the read is a system call, ≈ 0.8 µs here, against ≈ 30 ns for the
/// monotonic clock), so that the cost stays below 0.1 % of the loop's time.
///
/// - Complexity: O(1); one system call per `interval` at most, one per scheduled deadline.
/// - Note: Isolation: a value inside the loop's lock, used on the loop's thread only.
struct StallDetector: Sendable {
  /// The real time between samples.
  static let interval = Duration.milliseconds(1)
  /// Off-CPU time at or above which the window counts as stalled: below it no sleep of a
  /// round millisecond count is misread (`VirtualDelay`'s smallest unit is 5 ms).
  static let threshold = Duration.milliseconds(2)

  private var sampledAt: ContinuousClock.Instant?
  private var cpuAtSample = Duration.zero

  /// Samples the thread's CPU clock if the last sample is older than `interval`.
  mutating func jobStarted(at now: ContinuousClock.Instant) {
    if let sampledAt, sampledAt.duration(to: now) < Self.interval { return }
    sampledAt = now
    cpuAtSample = Self.threadCPUTime()
  }

  /// Whether the thread was off the CPU for `threshold` or more between the last sample
  /// (at most `interval` plus one job before the running job's start) and `now`, given the
  /// thread's CPU time `cpu` read just before `now`.
  func stalled(now: ContinuousClock.Instant, cpu: Duration) -> Bool {
    guard let sampledAt else { return false }
    let offCPU = sampledAt.duration(to: now) - (cpu - cpuAtSample)
    return offCPU >= Self.threshold
  }

  /// The CPU time the thread used since the last sample, given its CPU time `cpu` now.
  func cpuSinceSample(_ cpu: Duration) -> Duration {
    sampledAt == nil ? .zero : cpu - cpuAtSample
  }

  /// The calling thread's CPU time (user and system).
  static func threadCPUTime() -> Duration {
    var time = timespec()
    guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .zero }
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }
}
