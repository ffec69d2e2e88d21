/// Bounds each attempt by the request's timeout (``RequestContext/timeout``), measured on
/// the client's clock; past it, the transport call is cancelled and the attempt fails with
/// ``NetworkError/Kind/timeout(after:)``.
///
/// Put it innermost (after ``RetryMiddleware``) so each attempt gets its own timeout and a
/// timed-out idempotent request is retried.
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
    guard let timeout = context.timeout else { return try await next(request, context) }
    let response = try await withDeadline(timeout, on: context.clock) {
      try await next(request, context)
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
