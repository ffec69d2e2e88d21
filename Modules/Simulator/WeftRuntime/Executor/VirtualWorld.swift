import CDeterministicWorldLookup

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's clock reads and random draws as the deterministic runtime answers them, when
/// the executable links `CDeterministicWorld` (simulator executables do, through SimulatorKit):
/// every `ContinuousClock.now`, `SuspendingClock.now`, `Date()`, `DispatchTime.now()` and
/// `clock_gettime` reads virtual time (the wall clock from a fixed start), and every
/// `SystemRandomNumberGenerator` draw and `UUID()` comes from a seeded stream. Where it is not
/// linked (tests, apps, Apple platforms) every call here does nothing, and the runtime infers
/// a sleep's length from its real-clock deadline (`VirtualDelay`).
///
/// - Note: Isolation: thread-safe; the runtime calls it from its thread.
/// - Complexity: O(1) each.
enum VirtualWorld {
  /// The wall clock at virtual time zero unless a launch sets another:
  /// 2026-01-15T09:00:00Z (`Flow.defaultReferenceDate`), in seconds since 1970.
  static let defaultWallClockStart: Int64 = 1_768_467_600

  /// Whether `CDeterministicWorld` is linked into this executable and not turned off with
  /// `WEFT_REAL_CLOCKS=1` in the environment (to compare, or to rule virtual reads out).
  static var isAvailable: Bool {
    weft_lookup_world_is_linked() && getenv("WEFT_REAL_CLOCKS").map { $0.pointee == 0 } ?? true
  }

  /// Starts answering at virtual time zero: the wall clock at `wallClockStart` seconds since
  /// 1970, draws from `seed`.
  static func start(wallClockStart: Int64 = defaultWallClockStart, seed: UInt64 = 0) {
    weft_lookup_world_start(wallClockStart &* 1_000_000_000, seed)
  }

  /// Publishes virtual time (nanoseconds since the runtime's start).
  static func setTime(_ nanoseconds: UInt64) { weft_lookup_world_set_time(nanoseconds) }

  /// Restarts the random stream from `seed` and sets the wall clock to read `wallClock`
  /// (nanoseconds since 1970) at virtual time `now`.
  static func restart(seed: UInt64, wallClock: Int64, now: UInt64) {
    weft_lookup_world_seed(seed)
    weft_lookup_world_set_wall_start(wallClock &- Int64(clamping: now))
  }

  /// 8-byte words drawn from the random stream since it was last seeded.
  static var randomDraws: UInt64 { weft_lookup_world_random_draws() }

  /// What the wall clock reads at virtual time zero, in nanoseconds since 1970.
  static var wallClockStart: Int64 { weft_lookup_world_wall_start() }
}

/// The real clocks, whatever `VirtualWorld` answers the app: what the runtime's own real-time
/// waits and every measurement of real time (report wall time, database time) read.
///
/// - Note: Isolation: thread-safe.
/// - Complexity: O(1), one clock read; no allocation.
public enum RealClock {
  /// The real monotonic clock, in nanoseconds from an arbitrary origin.
  public static var monotonicNanoseconds: UInt64 { weft_real_monotonic_nanoseconds() }

  /// The real wall clock, in nanoseconds since 1970.
  public static var wallNanoseconds: Int64 { weft_real_wall_nanoseconds() }

  /// The real monotonic time elapsed since `start` (a `monotonicNanoseconds` reading).
  public static func since(_ start: UInt64) -> Duration {
    .nanoseconds(Int64(clamping: monotonicNanoseconds &- start))
  }
}
