/// A failure the simulated backend injects instead of (or on top of) the route's answer.
///
/// - Complexity: O(1) to apply, except `truncatedBody`/`garbageBody`: O(b), b = body size.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: `garbageBody` allocates the replacement body.
public enum SimulatedFault: Sendable, Equatable, CustomStringConvertible {
  /// The server never answers; the call ends only when the caller gives up (its timeout or
  /// cancellation). Uses no clock, so it adds no sleeper to a `TestClock`.
  case timeout
  /// The connection drops after the latency: ``TransportError/connectionLost(_:)``.
  case dropConnection
  /// No network at all: ``TransportError/offline(_:)``, at once.
  case offline
  /// The server answers with this 5xx status and a short text body.
  case serverError(status: Int)
  /// The server answers 429 with `Retry-After` in whole seconds.
  case tooManyRequests(retryAfter: Duration)
  /// The route's body, cut to half its length.
  case truncatedBody
  /// The route's body replaced by seeded random bytes of the same length (at least 16).
  case garbageBody

  public var description: String {
    switch self {
    case .timeout: "timeout"
    case .dropConnection: "dropped connection"
    case .offline: "offline"
    case .serverError(let status): "HTTP \(status)"
    case .tooManyRequests(let after): "HTTP 429 (Retry-After \(after))"
    case .truncatedBody: "truncated body"
    case .garbageBody: "garbage body"
    }
  }
}

/// When a fault applies: to which requests, how many times, or how often.
///
/// ```swift
/// transport.inject(.serverError(status: 503), times: 2, on: .get, "/items")
/// transport.inject(.dropConnection, probability: 0.1)      // 10% of every request
/// ```
///
/// - Complexity: O(s) to match, s = path segments of its pattern.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: none per match beyond the pattern's.
public struct FaultRule: Sendable, Equatable {
  /// How often the rule fires.
  public enum Schedule: Sendable, Equatable {
    /// On the next `n` matching requests.
    case times(Int)
    /// On every matching request.
    case always
    /// On each matching request with this probability (seeded).
    case probability(Double)
  }

  /// The fault to inject.
  public var fault: SimulatedFault
  /// How often.
  public var schedule: Schedule
  /// Only requests with this method (`nil`: any).
  public var method: HTTPMethod?
  /// Only requests whose path matches (`nil`: any).
  public var path: PathPattern?

  /// Makes a rule.
  public init(
    _ fault: SimulatedFault, schedule: Schedule, method: HTTPMethod? = nil,
    path: PathPattern? = nil
  ) {
    self.fault = fault
    self.schedule = schedule
    self.method = method
    self.path = path
  }

  func matches(_ request: HTTPRequest) -> Bool {
    if let method, method != request.method { return false }
    if let path, path.match(request.url.path) == nil { return false }
    return true
  }
}
