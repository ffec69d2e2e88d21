/// What middleware knows about the request in flight beyond the ``HTTPRequest`` itself.
///
/// - Complexity: O(1) to copy.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: none beyond the endpoint name it shares.
public struct RequestContext: Sendable {
  /// The endpoint's name (`GET /users/{id}`), for metrics and errors.
  public var endpoint: String
  /// The attempt being made, counting from 1; the retry middleware advances it.
  public var attempt: Int
  /// How long one attempt may take; `nil` means no limit.
  public var timeout: Duration?
  /// The clock every delay and timeout uses (a `TestClock` in tests).
  public var clock: any Clock<Duration>
  /// Whether a middleware already bounds what follows by ``timeout`` (``TimeoutMiddleware``
  /// sets it), so the client does not add a second timer around the transport call.
  var timeoutIsEnforced = false

  /// Makes a context for attempt 1.
  public init(
    endpoint: String, attempt: Int = 1, timeout: Duration?, clock: any Clock<Duration>
  ) {
    self.endpoint = endpoint
    self.attempt = attempt
    self.timeout = timeout
    self.clock = clock
  }
}
