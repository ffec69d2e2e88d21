import Foundation

extension HTTPClient {
  /// Sends `endpoint` through the middleware and transport and decodes a 2xx response.
  ///
  /// - Throws: ``NetworkError``: `.http` for a non-2xx status that the middleware did not
  ///   recover from, `.decoding` for a body that does not match `Response`, `.cancelled` when
  ///   the calling task is cancelled (the transport call is cancelled too), `.timeout` when an
  ///   attempt outlasts the endpoint's timeout or ``defaultTimeout``, and the transport's
  ///   failures — among them a body over ``responseBodyLimit`` (`.transport`, with
  ///   ``NetworkError/transportError`` set to
  ///   ``TransportError/responseTooLarge(limit:declaredLength:)``), and headers past
  ///   ``responseHeaderLimits`` (``TransportError/responseHeadersTooLarge(count:bytes:limits:)``).
  ///   A body nested deeper than the coding's ``JSONCoding/maximumNestingDepth`` is
  ///   `.decoding`.
  /// - Complexity: O(m + b) per attempt, m = middleware, b = body size.
  /// - Note: Isolation: runs on the caller's task; the transport runs on its own.
  /// - Note: Allocations: see ``HTTPClient``.
  public func send<Response>(
    _ endpoint: Endpoint<Response>
  ) async throws(NetworkError)
    -> Response
  {
    let (request, response, attempt) = try await exchange(endpoint)
    return try endpoint.decode(response, coding: coding, request: request, attempt: attempt)
  }

  /// Sends `endpoint` and returns the raw 2xx response, undecoded (for bodies that are not
  /// JSON: files, images, pages).
  ///
  /// - Throws: ``NetworkError``, as ``send(_:)`` but never `.decoding`.
  /// - Complexity: O(m + b) per attempt.
  /// - Note: Isolation: runs on the caller's task.
  /// - Note: Allocations: the request and one closure per middleware.
  public func response<Response>(
    for endpoint: Endpoint<Response>
  ) async throws(NetworkError)
    -> HTTPResponse
  {
    try await exchange(endpoint).response
  }

  private func exchange<Response>(
    _ endpoint: Endpoint<Response>
  ) async throws(NetworkError)
    -> (request: HTTPRequest, response: HTTPResponse, attempt: Int)
  {
    let request = try endpoint.makeRequest(
      baseURL: baseURL, defaultHeaders: defaultHeaders, coding: coding)
    let context = RequestContext(
      endpoint: endpoint.name, timeout: endpoint.timeout ?? defaultTimeout, clock: clock)
    let attempts = AttemptCounter()
    let chain = makeChain(attempts: attempts)
    let response: HTTPResponse
    do {
      if Task.isCancelled { throw CancellationError() }
      response = try await chain(request, context)
    } catch {
      throw NetworkError.wrapping(
        error, request: request, endpoint: endpoint.name, attempt: attempts.last)
    }
    guard response.isSuccess else {
      throw NetworkError(
        .http(status: response.status, bodyExcerpt: response.bodyExcerpt()),
        request: request, endpoint: endpoint.name, attempt: attempts.last)
    }
    return (request, response, attempts.last)
  }

  /// The chain as one closure: each middleware wraps the next, the transport is last. The
  /// transport call is bounded by the context's timeout unless a middleware already bounds it,
  /// and by the body limit.
  private func makeChain(attempts: AttemptCounter) -> MiddlewareNext {
    let transport = self.transport
    let limit = responseBodyLimit
    let headerLimits = responseHeaderLimits
    var next: MiddlewareNext = { request, context in
      attempts.record(context.attempt)
      do {
        guard let timeout = context.timeout, !context.timeoutIsEnforced else {
          let response = try await transport.send(request, responseBodyLimit: limit)
          if let violation = headerLimits.violation(response.headers) { throw violation }
          return response
        }
        let response = try await withDeadline(timeout, on: context.clock) {
          try await transport.send(request, responseBodyLimit: limit)
        }
        guard let response else {
          if Task.isCancelled { throw CancellationError() }
          throw NetworkError(
            .timeout(after: timeout), request: request, endpoint: context.endpoint,
            attempt: context.attempt)
        }
        if let violation = headerLimits.violation(response.headers) { throw violation }
        return response
      } catch {
        throw NetworkError.wrapping(
          error, request: request, endpoint: context.endpoint, attempt: context.attempt)
      }
    }
    for link in middleware.reversed() {
      let inner = next
      next = { request, context in
        try await link.intercept(request, context: context, next: inner)
      }
    }
    return next
  }
}

extension NetworkError {
  /// `error` as a ``NetworkError`` about `request`: transport errors, cancellation and
  /// anything else get a kind; a ``NetworkError`` passes through unchanged.
  static func wrapping(
    _ error: any Error, request: HTTPRequest, endpoint: String, attempt: Int
  ) -> NetworkError {
    if let error = error as? NetworkError { return error }
    let kind: Kind
    switch error {
    case let error as TransportError:
      switch error {
      case .offline: kind = .offline
      case .cancelled: kind = .cancelled
      case .timedOut, .cannotConnect, .connectionLost, .failed, .responseTooLarge,
        .responseHeadersTooLarge:
        kind = .transport(message: error.description)
      }
      return NetworkError(
        kind, request: request, endpoint: endpoint, attempt: attempt, transportError: error)
    case is CancellationError:
      kind = .cancelled
    default:
      kind = .transport(message: "\(error)")
    }
    return NetworkError(kind, request: request, endpoint: endpoint, attempt: attempt)
  }
}
