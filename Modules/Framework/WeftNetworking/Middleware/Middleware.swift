/// The rest of the chain, as seen by one middleware: call it to pass the request on.
public typealias MiddlewareNext =
  @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse

/// One link of ``HTTPClient``'s request chain: it sees the request on the way in and the
/// response (or error) on the way out, and may retry, rewrite, time or short-circuit it.
///
/// ```swift
/// struct UserAgent: Middleware {
///   func intercept(_ request: HTTPRequest, context: RequestContext,
///                  next: @escaping MiddlewareNext) async throws -> HTTPResponse {
///     var request = request
///     request.headers["User-Agent"] = "Weft/1"
///     return try await next(request, context)
///   }
/// }
/// ```
///
/// The client runs the chain outermost first. The recommended order is
/// ``MetricsMiddleware``, ``RetryMiddleware``, ``BearerAuthMiddleware``,
/// ``TimeoutMiddleware``: metrics time the whole call, each retry gets a fresh token check
/// and its own timeout.
///
/// > Important: Errors thrown by `next` are ``NetworkError``s carrying the attempt; a
/// > middleware that throws its own should throw a ``NetworkError`` too.
///
/// - Complexity: the chain adds one closure call per middleware per attempt.
/// - Note: Isolation: implementations are `Sendable`; one instance serves concurrent
///   requests.
/// - Note: Allocations: one closure per middleware per request, when the chain is built.
public protocol Middleware: Sendable {
  /// Handles `request`, usually by calling `next` once or more.
  func intercept(
    _ request: HTTPRequest, context: RequestContext, next: @escaping MiddlewareNext
  ) async throws -> HTTPResponse
}
