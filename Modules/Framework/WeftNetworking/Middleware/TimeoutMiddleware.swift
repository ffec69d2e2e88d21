/// Bounds each attempt by the request's timeout (``RequestContext/timeout``), measured on
/// the client's clock; past it, the transport call is cancelled and the attempt fails with
/// ``NetworkError/Kind/timeout(after:)``.
///
/// ``HTTPClient`` already bounds each transport call by the timeout without this middleware;
/// add it to choose where the bound sits. Innermost (after ``RetryMiddleware``) it bounds each
/// transport call, as the client would, and a timed-out idempotent request is retried; before
/// ``BearerAuthMiddleware`` it also bounds the token refresh; outermost it bounds the whole
/// call, retries included. The client then adds no timer of its own.
///
/// - Complexity: O(1) besides the call.
/// - Note: Isolation: the rest of the chain runs in a child task of the request's task, so
///   cancelling the request cancels it.
/// - Note: Allocations: a task group with two child tasks per attempt; none when the
///   request has no timeout.
public struct TimeoutMiddleware: Middleware {
  /// Makes the middleware.
  public init() {}

  public func intercept(
    _ request: HTTPRequest, context: RequestContext, next: @escaping MiddlewareNext
  ) async throws -> HTTPResponse {
    guard let timeout = context.timeout, !context.timeoutIsEnforced else {
      return try await next(request, context)
    }
    var bounded = context
    bounded.timeoutIsEnforced = true
    let inner = bounded
    let response = try await withDeadline(timeout, on: context.clock) {
      try await next(request, inner)
    }
    guard let response else {
      if Task.isCancelled { throw CancellationError() }
      throw NetworkError(
        .timeout(after: timeout), request: request, endpoint: context.endpoint,
        attempt: context.attempt)
    }
    return response
  }
}
