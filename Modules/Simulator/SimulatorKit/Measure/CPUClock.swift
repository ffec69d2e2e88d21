import WeftRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A source of CPU time in nanoseconds: the calling thread's CPU clock, the whole process's, or
/// an injected function (tests use a scripted one, so nothing they check depends on timing).
///
/// ```swift
/// let clock = CPUClock.thread
/// let start = clock.now()
/// work()
/// let spent = clock.now() - start  // CPU nanoseconds this thread spent in `work`
/// ```
///
/// > Important: Thread CPU time counts only the calling thread. Measure synchronous work with
/// > it; work that hops to other threads needs ``process``.
///
/// - Complexity: `now()` is O(1), one `clock_gettime` call for the system clocks.
/// - Note: Isolation: `Sendable`; any isolation may read it.
/// - Note: Allocations: none.
public struct CPUClock: Sendable {
  /// Reads the clock, in nanoseconds from an arbitrary origin.
  public let now: @Sendable () -> UInt64

  /// Makes a clock from a reading function.
  public init(now: @escaping @Sendable () -> UInt64) { self.now = now }

  /// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): what the gate's ratio tier uses,
  /// because other processes and threads do not move it.
  public static let thread = CPUClock { CPUClock.read(systemClock: threadClockID) }

  /// The whole process's CPU time over every thread (`CLOCK_PROCESS_CPUTIME_ID`).
  public static let process = CPUClock { CPUClock.read(systemClock: processClockID) }

  /// The real monotonic wall clock (`CLOCK_MONOTONIC`, even where the app's clock reads are
  /// virtual), for reports; the gate never compares it.
  public static let monotonic = CPUClock { RealClock.monotonicNanoseconds }

  // On Darwin the constants are already `clockid_t` (a C enum); on Glibc and Musl they are
  // `Int32` macros and `clockid_t` is `Int32`.
  #if canImport(Darwin)
  private static let threadClockID = CLOCK_THREAD_CPUTIME_ID
  private static let processClockID = CLOCK_PROCESS_CPUTIME_ID
  #else
  private static let threadClockID = clockid_t(CLOCK_THREAD_CPUTIME_ID)
  private static let processClockID = clockid_t(CLOCK_PROCESS_CPUTIME_ID)
  #endif

  private static func read(systemClock id: clockid_t) -> UInt64 {
    var time = timespec()
    guard clock_gettime(id, &time) == 0 else { return 0 }
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}
