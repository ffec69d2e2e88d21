/// Fails a request at once with ``NetworkError/Kind/offline`` when ``NetworkAvailability``
/// says the network is down, without touching the transport — the degrade-fast path.
///
/// - Complexity: O(1): one atomic load.
/// - Note: Isolation: thread-safe.
/// - Note: Allocations: none.
public struct OfflineMiddleware: Middleware {
  /// The flag consulted before each attempt.
  public let availability: NetworkAvailability

  /// Makes the middleware.
  public init(availability: NetworkAvailability) { self.availability = availability }

  public func intercept(
    _ request: HTTPRequest, context: RequestContext, next: @escaping MiddlewareNext
  ) async throws -> HTTPResponse {
    guard availability.isAvailable else {
      throw NetworkError(
        .offline, request: request, endpoint: context.endpoint, attempt: context.attempt)
    }
    return try await next(request, context)
  }
}
