/// Signs requests with `Authorization: Bearer <token>` and, on a 401, refreshes the token once
/// and sends the request again once.
///
/// Many requests failing with 401 at the same time share one refresh (``TokenStore`` is
/// single-flight): N concurrent 401s make one refresh call, then each request retries once
/// with the new token. A second 401 is returned as is (it becomes
/// ``NetworkError/Kind/http(status:bodyExcerpt:)`` 401); a refresh that throws becomes
/// ``NetworkError/Kind/authentication(message:)``.
///
/// - Complexity: O(1) besides the calls; a refresh is shared by every request waiting on it.
/// - Note: Isolation: token reads and refreshes go through the ``TokenStore`` actor.
/// - Note: Allocations: none on the success path beyond the header.
public struct BearerAuthMiddleware: Middleware {
  /// Where tokens come from.
  public let tokens: TokenStore

  /// Makes the middleware.
  public init(tokens: TokenStore) { self.tokens = tokens }

  public func intercept(
    _ request: HTTPRequest, context: RequestContext, next: @escaping MiddlewareNext
  ) async throws -> HTTPResponse {
    let token = await tokens.currentToken
    let response = try await next(signed(request, with: token), context)
    guard response.status == 401 else { return response }
    let fresh: String
    do {
      fresh = try await tokens.refreshedToken(replacing: token)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw NetworkError(
        .authentication(message: "\(error)"), request: request, endpoint: context.endpoint,
        attempt: context.attempt)
    }
    return try await next(signed(request, with: fresh), context)
  }

  private func signed(_ request: HTTPRequest, with token: String?) -> HTTPRequest {
    guard let token else { return request }
    var request = request
    request.headers["Authorization"] = "Bearer \(token)"
    return request
  }
}
