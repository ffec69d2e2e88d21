import WeftNetworking

/// A fault to inject into the simulated network, as the simulator describes it.
///
/// ```swift
/// NetworkFaultSpec(.serverError(status: 503), count: 2, path: "/metrics/{id}")
/// NetworkFaultSpec(.timeout, rate: 0.1)
/// ```
///
/// `count` wins over `rate`: with a count the fault hits the next `count` matching requests;
/// otherwise each matching request is hit with probability `rate` (seeded), always at 1.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and copy.
public struct NetworkFaultSpec: Sendable, Hashable, CustomStringConvertible {
  /// What goes wrong.
  ///
  /// - Complexity: O(1) to make and compare.
  /// - Note: Isolation: a `Sendable` value; any isolation.
  public enum Kind: Sendable, Hashable, CustomStringConvertible {
    /// The server applies the request but the response never comes; the client gives up
    /// after its request timeout.
    case timeout
    /// The connection drops before the server sees the request.
    case drop
    /// The server answers with a 5xx `status`.
    case serverError(status: Int)
    /// The server answers 429 with `Retry-After`.
    case rateLimited(retryAfter: Duration)
    /// The response body is cut in half.
    case truncated
    /// The response body is replaced by random bytes.
    case garbage

    public var description: String {
      switch self {
      case .timeout: "timeout"
      case .drop: "drop"
      case .serverError(let status): "HTTP \(status)"
      case .rateLimited(let after): "429 (Retry-After \(after))"
      case .truncated: "truncated body"
      case .garbage: "garbage body"
      }
    }
  }

  /// What goes wrong.
  public var kind: Kind
  /// The probability each matching request is hit (used when `count` is nil).
  public var rate: Double
  /// How many matching requests are hit, or nil for "every one, with probability `rate`".
  public var count: Int?
  /// The path pattern the fault applies to (`/metrics/{id}`, `/metrics/*`), or nil for all.
  public var path: String?

  /// Makes a fault.
  ///
  /// - Complexity: O(1).
  public init(_ kind: Kind, rate: Double = 1, count: Int? = nil, path: String? = nil) {
    self.kind = kind
    self.rate = rate
    self.count = count
    self.path = path
  }

  var schedule: FaultRule.Schedule {
    if let count { return .times(max(0, count)) }
    return rate >= 1 ? .always : .probability(max(0, rate))
  }

  public var description: String {
    var text = "\(kind)"
    if let count { text += " ×\(count)" } else if rate < 1 { text += " at rate \(rate)" }
    if let path { text += " on \(path)" }
    return text
  }
}
