/// When and how long to wait before retrying a failed attempt: exponential backoff with full
/// jitter, `Retry-After` honoured, a cap on attempts.
///
/// The delay before attempt `n + 1` is a uniform random duration in
/// `0 ... min(maxDelay, baseDelay × multiplier^(n-1))` ("full jitter": retries of many clients
/// spread out instead of arriving together). A 429 or 503 with `Retry-After` waits exactly
/// that long instead, unless it is longer than `maxRetryAfter`, in which case the error is
/// returned at once.
///
/// - Complexity: O(1) per decision.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: none.
public struct RetryPolicy: Sendable, Equatable {
  /// Attempts in all, the first included (1 disables retries).
  public var maxAttempts: Int
  /// The cap of the first backoff.
  public var baseDelay: Duration
  /// How much the cap grows per attempt.
  public var multiplier: Double
  /// The largest backoff cap.
  public var maxDelay: Duration
  /// The longest `Retry-After` the client waits for; longer ones fail at once.
  public var maxRetryAfter: Duration
  /// Statuses worth retrying.
  public var retryableStatuses: Set<Int>

  /// Makes a policy; the defaults suit interactive apps (3 attempts, 200 ms base, 10 s cap).
  public init(
    maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(200), multiplier: Double = 2,
    maxDelay: Duration = .seconds(10), maxRetryAfter: Duration = .seconds(60),
    retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.baseDelay = baseDelay
    self.multiplier = multiplier
    self.maxDelay = maxDelay
    self.maxRetryAfter = maxRetryAfter
    self.retryableStatuses = retryableStatuses
  }

  /// No retries.
  public static let never = RetryPolicy(maxAttempts: 1)

  /// The backoff cap before attempt `attempt + 1`, i.e. after `attempt` failures.
  public func backoffCap(afterAttempt attempt: Int) -> Duration {
    let exponent = Double(max(0, attempt - 1))
    let factor = pow(multiplier, exponent)
    let cap = baseDelay.scaled(by: factor)
    return min(cap, maxDelay)
  }

  /// Whether a failure of this kind may succeed if tried again.
  func isRetryable(_ kind: NetworkError.Kind) -> Bool {
    switch kind {
    case .timeout, .transport: true
    case .http(let status, _): retryableStatuses.contains(status)
    case .offline, .cancelled, .decoding, .authentication, .encoding: false
    }
  }
}

/// `base` to the power `exponent`, for small non-negative integral exponents, without Foundation.
private func pow(_ base: Double, _ exponent: Double) -> Double {
  var result = 1.0
  var remaining = Int(exponent)
  while remaining > 0 && result < 1e12 {
    result *= base
    remaining -= 1
  }
  return result
}
