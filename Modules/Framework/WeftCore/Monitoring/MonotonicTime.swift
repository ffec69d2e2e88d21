import CDeterministicWorldLookup

/// Monotonic time as a `Duration` since a process-wide origin, for commit-to-delivery
/// latencies.
///
/// `ContinuousClock.Instant` is not frozen, so inlined engine code that keeps an
/// `Instant?` handles it through generic value witnesses on every commit, even with
/// monitoring off; `Duration` is frozen (two integers), so `Duration?` costs nothing there.
///
/// It reads the *real* monotonic clock even in a simulator whose clock reads are virtual
/// (`CDeterministicWorld`): a latency measures the machine, and virtual time does not move
/// inside a commit.
///
/// - Note: Isolation: thread-safe.
@usableFromInline
enum MonotonicTime {
  /// The origin: the first time anyone asked.
  static let origin = weft_real_monotonic_nanoseconds()

  /// The time since `origin`.
  ///
  /// - Complexity: O(1): one clock read.
  @usableFromInline
  static func now() -> Duration {
    .nanoseconds(Int64(clamping: weft_real_monotonic_nanoseconds() &- origin))
  }
}
