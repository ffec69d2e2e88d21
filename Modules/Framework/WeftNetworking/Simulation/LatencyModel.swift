/// How long the simulated network takes to answer, drawn per request from the transport's
/// seeded generator.
///
/// ```swift
/// .fixed(.milliseconds(40))
/// .uniform(.milliseconds(20)...(.milliseconds(80)))
/// .spiky(base: .milliseconds(30), spike: .seconds(2), probability: 0.05)
/// ```
///
/// - Complexity: O(1) per sample.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: none.
public enum LatencyModel: Sendable, Equatable {
  /// Answers at once (no clock sleep at all).
  case none
  /// Always this long.
  case fixed(Duration)
  /// Uniformly spread over the range.
  case uniform(ClosedRange<Duration>)
  /// Usually `base`, but `spike` with the given probability — a congested network's tail.
  case spiky(base: Duration, spike: Duration, probability: Double)

  /// One latency.
  public func sample(using random: inout SeededRandom) -> Duration {
    switch self {
    case .none:
      return .zero
    case .fixed(let duration):
      return duration
    case .uniform(let range):
      return range.lowerBound + (range.upperBound - range.lowerBound).scaled(by: random.nextUnit())
    case .spiky(let base, let spike, let probability):
      return random.nextUnit() < probability ? spike : base
    }
  }
}
