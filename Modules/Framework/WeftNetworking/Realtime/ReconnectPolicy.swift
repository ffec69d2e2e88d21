/// How a ``RealtimeConnection`` retries after a drop: backoff between attempts and how many
/// attempts before it gives up.
///
/// The wait before reconnect attempt `n` is `cap × (1 − jitter × u)`, `u` uniform in `0..<1`
/// from the connection's seeded generator and `cap = min(maxDelay, baseDelay × multiplier^(n-1))`.
/// `jitter: 0` gives exact, predictable waits; `1` is full jitter.
///
/// - Complexity: O(1) per decision.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: none.
public struct ReconnectPolicy: Sendable, Equatable {
  /// Reconnect attempts after a drop (or a failed first dial) before ``ConnectionState/failed(_:)``;
  /// 0 fails at once.
  public var maxAttempts: Int
  /// The first wait's cap.
  public var baseDelay: Duration
  /// Growth of the cap per attempt.
  public var multiplier: Double
  /// The largest cap.
  public var maxDelay: Duration
  /// How much of the cap is randomised, 0...1.
  public var jitter: Double

  /// Makes a policy; defaults: 8 attempts, 500 ms doubling to 30 s, half jitter.
  public init(
    maxAttempts: Int = 8, baseDelay: Duration = .milliseconds(500), multiplier: Double = 2,
    maxDelay: Duration = .seconds(30), jitter: Double = 0.5
  ) {
    self.maxAttempts = max(0, maxAttempts)
    self.baseDelay = baseDelay
    self.multiplier = multiplier
    self.maxDelay = maxDelay
    self.jitter = min(max(jitter, 0), 1)
  }

  /// The wait before reconnect attempt `attempt`.
  public func delay(beforeAttempt attempt: Int, random: inout SeededRandom) -> Duration {
    var cap = baseDelay
    var step = 1
    while step < attempt && cap < maxDelay {
      cap = cap.scaled(by: multiplier)
      step += 1
    }
    cap = min(cap, maxDelay)
    guard jitter > 0 else { return cap }
    return cap.scaled(by: 1 - jitter * random.nextUnit())
  }
}

/// How a connection checks that it is alive: a ping every `interval`, and the connection is
/// declared dead if the pong has not arrived `timeout` after the ping.
///
/// - Note: Isolation: a value type; any isolation.
public struct HeartbeatPolicy: Sendable, Equatable {
  /// Time between the end of one check and the next ping.
  public var interval: Duration
  /// How long a pong may take.
  public var timeout: Duration

  /// Makes a policy; defaults: ping every 25 s, pong within 10 s.
  public init(interval: Duration = .seconds(25), timeout: Duration = .seconds(10)) {
    self.interval = interval
    self.timeout = timeout
  }
}
