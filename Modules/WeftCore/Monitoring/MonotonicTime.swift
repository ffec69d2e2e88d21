/// Monotonic time as a `Duration` since a process-wide origin, for commit-to-delivery
/// latencies.
///
/// `ContinuousClock.Instant` is not frozen, so inlined engine code that keeps an
/// `Instant?` handles it through generic value witnesses on every commit, even with
/// monitoring off; `Duration` is frozen (two integers), so `Duration?` costs nothing there.
///
/// - Note: Isolation: thread-safe.
@usableFromInline
enum MonotonicTime {
  /// The origin: the first time anyone asked.
  static let origin = ContinuousClock.now

  /// The time since `origin`.
  ///
  /// - Complexity: O(1): one clock read.
  @usableFromInline
  static func now() -> Duration { origin.duration(to: .now) }
}
