import WeftCore

/// Retries failed attempts of retry-safe requests (idempotent methods, or any request with
/// an `Idempotency-Key`) with exponential backoff and full jitter, honouring `Retry-After`.
/// Requests that are not retry-safe are sent exactly once, and a response body over the
/// client's ``HTTPClient/responseBodyLimit`` is never retried.
///
/// ```swift
/// RetryMiddleware(policy: RetryPolicy(maxAttempts: 4), seed: 42)
/// ```
///
/// The decisions come from ``RetryStateMachine``; this type only sleeps on the client's
/// clock and calls the chain again. Each request draws its own generator from the seeded
/// one, so jitter is reproducible run to run.
///
/// - Complexity: O(a) per request, a = attempts made (at most `policy.maxAttempts`).
/// - Note: Isolation: runs on the request's task; the seed generator is behind a lock.
/// - Note: Allocations: none per attempt beyond the rest of the chain's.
public struct RetryMiddleware: Middleware {
  /// The policy.
  public let policy: RetryPolicy
  private let seeds: Locked<SeededRandom>

  /// Makes the middleware; `seed` fixes every jitter it draws.
  public init(policy: RetryPolicy = RetryPolicy(), seed: UInt64 = 0) {
    self.policy = policy
    self.seeds = Locked(SeededRandom(seed: seed))
  }

  public func intercept(
    _ request: HTTPRequest, context: RequestContext, next: @escaping MiddlewareNext
  ) async throws -> HTTPResponse {
    var machine = RetryStateMachine(
      policy: policy, retrySafe: request.isRetrySafe,
      random: seeds.withLock { $0.split() })
    var context = context
    while true {
      context.attempt = machine.attempt
      let action: RetryStateMachine.Action
      let outcome: Result<HTTPResponse, any Error>
      do {
        let response = try await next(request, context)
        outcome = .success(response)
        action = machine.attemptFinished(
          .response(status: response.status, retryAfter: response.retryAfter))
      } catch {
        let wrapped = NetworkError.wrapping(
          error, request: request, endpoint: context.endpoint, attempt: context.attempt)
        outcome = .failure(wrapped)
        // A body over the client's limit would be over it again: never worth a retry.
        action =
          Task.isCancelled || wrapped.isResponseTooLarge
          ? .finish : machine.attemptFinished(.failure(wrapped.kind))
      }
      switch action {
      case .finish:
        return try outcome.get()
      case .retry(let delay):
        // No delay, no sleep: a zero-length sleep on a TestClock waits for an advance.
        if delay > .zero { try await context.clock.sleep(for: delay) }
        try Task.checkCancellation()
      }
    }
  }
}
