import Foundation

/// Sends typed ``Endpoint``s through a chain of ``Middleware`` to a ``Transport``, and turns
/// every failure into a ``NetworkError`` that reads as a log line.
///
/// ```swift
/// let clock = TestClock()                        // or ContinuousClock() in an app
/// let client = HTTPClient(
///   baseURL: URL(string: "https://api.example.com")!,
///   transport: URLSessionTransport(),
///   clock: clock,
///   middleware: [
///     MetricsMiddleware(monitor: .shared),
///     RetryMiddleware(policy: RetryPolicy(), seed: 42),
///     BearerAuthMiddleware(tokens: tokens),
///     TimeoutMiddleware(),
///   ])
/// let user = try await client.send(Endpoint<User>(.get, "/users/42"))
/// ```
///
/// # Performance
/// Per call: one request build (URL, headers, encoded body), one closure per middleware for
/// the chain, one JSON decode. The middleware decide the rest: retries wait on the clock.
/// A timeout races the transport call in a task group (two child tasks per attempt); with
/// `defaultTimeout: nil` and no endpoint timeout there is none. Bodies are held in memory
/// whole, up to ``responseBodyLimit``.
///
/// - Complexity: O(m + b) per attempt, m = middleware, b = body size.
/// - Note: Isolation: a `Sendable` value; call it from any isolation, concurrently. It
///   holds no mutable state of its own.
/// - Note: Allocations: the request, one closure per middleware, the decoder and the
///   decoded value.
public struct HTTPClient: Sendable {
  /// Where endpoint paths are resolved.
  public var baseURL: URL
  /// What sends the requests.
  public var transport: any Transport
  /// The clock for timeouts, retry delays and latency metrics.
  public var clock: any Clock<Duration>
  /// The chain, outermost first.
  public var middleware: [any Middleware]
  /// JSON encoding and decoding.
  public var coding: JSONCoding
  /// Headers every request carries (endpoints may override them).
  public var defaultHeaders: HTTPHeaders
  /// The timeout of one attempt when the endpoint does not set one; `nil` for none.
  ///
  /// It applies with or without middleware: the client bounds each transport call by it, on
  /// ``clock``. A ``TimeoutMiddleware`` in the chain takes the job over from where it sits
  /// (innermost: the same per-attempt bound; outermost: one bound for all attempts), and the
  /// client then adds no second timer.
  public var defaultTimeout: Duration?
  /// The largest response body, in bytes, the client accepts (by default
  /// ``defaultResponseBodyLimit``, 16 MiB). A larger body fails the attempt with a
  /// `.transport` ``NetworkError`` whose ``NetworkError/transportError`` is
  /// ``TransportError/responseTooLarge(limit:declaredLength:)``, before more than this many
  /// bytes are held, and is not retried. Error responses count too.
  public var responseBodyLimit: Int
  /// The most header fields and header bytes a response may have (100 fields, 64 KiB by
  /// default; see ``ResponseHeaderLimits``).
  public var responseHeaderLimits = ResponseHeaderLimits()

  /// The default ``responseBodyLimit``: 16 MiB (16 × 1024 × 1024 bytes) — far above any
  /// JSON page an app should ask for, far below what would hurt a phone's memory.
  public static let defaultResponseBodyLimit = 16 * 1024 * 1024

  /// Makes a client.
  public init(
    baseURL: URL, transport: any Transport, clock: any Clock<Duration> = ContinuousClock(),
    middleware: [any Middleware] = [], coding: JSONCoding = JSONCoding(),
    defaultHeaders: HTTPHeaders = [:], defaultTimeout: Duration? = .seconds(30),
    responseBodyLimit: Int = HTTPClient.defaultResponseBodyLimit
  ) {
    self.baseURL = baseURL
    self.transport = transport
    self.clock = clock
    self.middleware = middleware
    self.coding = coding
    self.defaultHeaders = defaultHeaders
    self.defaultTimeout = defaultTimeout
    self.responseBodyLimit = responseBodyLimit
  }
}
