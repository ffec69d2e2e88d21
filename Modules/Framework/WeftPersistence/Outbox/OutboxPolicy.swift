/// How the outbox retries: exponential backoff with jitter, a lease for in-flight
/// deliveries, and a dead-letter threshold.
///
/// The delay after failure n is `initialDelay × multiplier^(n−1)`, capped at `maximumDelay`,
/// then scaled by a random factor in `1 ± jitter` (so a fleet of devices coming back online
/// does not retry in lockstep).
///
/// - Note: Isolation: a `Sendable` value.
public struct OutboxPolicy: Sendable, Equatable {
  /// Failures after which an entry is dead-lettered.
  public var maximumAttempts: Int = 10
  /// The delay after the first failure.
  public var initialDelay: Duration = .seconds(2)
  /// The factor between consecutive delays.
  public var multiplier: Double = 2
  /// The longest delay.
  public var maximumDelay: Duration = .seconds(3600)
  /// The random spread of each delay, as a fraction (0 = none, 0.2 = ±20%).
  public var jitter: Double = 0.2
  /// How long a dequeued entry is reserved for its deliverer; if neither acknowledged nor
  /// failed by then (the app was killed), it becomes due again.
  public var lease: Duration = .seconds(60)

  /// The defaults.
  public init() {}

  /// A policy with the given values.
  public init(
    maximumAttempts: Int, initialDelay: Duration, multiplier: Double = 2,
    maximumDelay: Duration = .seconds(3600), jitter: Double = 0.2, lease: Duration = .seconds(60)
  ) {
    self.maximumAttempts = maximumAttempts
    self.initialDelay = initialDelay
    self.multiplier = multiplier
    self.maximumDelay = maximumDelay
    self.jitter = jitter
    self.lease = lease
  }

  /// The delay after `failures` failures (≥ 1), for a `random` number in `0..<1`.
  ///
  /// - Complexity: O(1).
  public func delay(afterFailures failures: Int, random: Double) -> Duration {
    let base = initialDelay.seconds * pow(multiplier, Double(max(failures, 1) - 1))
    let capped = min(base, maximumDelay.seconds)
    let spread = min(max(jitter, 0), 1)
    let factor = 1 + spread * (2 * min(max(random, 0), 1) - 1)
    return .seconds(max(capped * factor, 0))
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

/// `base` raised to `exponent`, by repeated squaring for whole exponents.
private func pow(_ base: Double, _ exponent: Double) -> Double {
  var result = 1.0
  var factor = base
  var remaining = Int(exponent)
  while remaining > 0 {
    if remaining & 1 == 1 { result *= factor }
    factor *= factor
    remaining >>= 1
    if result.isInfinite { return .infinity }
  }
  return result
}
