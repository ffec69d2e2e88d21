/// The retry loop's decisions as a pure value: feed it each attempt's outcome, carry out the
/// action it returns. No clock, no I/O, so every path is tested synchronously.
///
/// ```swift
/// var machine = RetryStateMachine(policy: policy, retrySafe: request.isRetrySafe,
///                                 random: SeededRandom(seed: 7))
/// switch machine.attemptFinished(.failure(.timeout(after: .seconds(5)))) {
/// case .retry(let delay): try await clock.sleep(for: delay)   // then attempt again
/// case .finish: break                                         // surface the outcome
/// }
/// ```
///
/// - Complexity: O(1) per event.
/// - Note: Isolation: a value type owned by one request's task.
/// - Note: Allocations: none.
public struct RetryStateMachine: Sendable, Equatable {
  /// How an attempt ended.
  public enum Outcome: Sendable, Equatable {
    /// A response arrived (any status); `retryAfter` is its `Retry-After`, if any.
    case response(status: Int, retryAfter: Duration?)
    /// No response: the failure's kind.
    case failure(NetworkError.Kind)
  }

  /// What to do next.
  public enum Action: Sendable, Equatable {
    /// Return the outcome to the caller (success, or a failure that will not be retried).
    case finish
    /// Wait this long on the clock, then make attempt ``RetryStateMachine/attempt``.
    case retry(after: Duration)
  }

  /// The policy.
  public let policy: RetryPolicy
  /// Whether the request may be sent again (idempotent or carrying an idempotency key).
  public let retrySafe: Bool
  /// The attempt in progress, counting from 1.
  public private(set) var attempt = 1
  private var random: SeededRandom

  /// Makes the machine for one request, before its first attempt.
  public init(policy: RetryPolicy, retrySafe: Bool, random: SeededRandom) {
    self.policy = policy
    self.retrySafe = retrySafe
    self.random = random
  }

  /// Records how the current attempt ended and says what to do; on `.retry` the attempt
  /// counter has moved to the next attempt.
  public mutating func attemptFinished(_ outcome: Outcome) -> Action {
    let retryAfter: Duration?
    switch outcome {
    case .response(let status, let after):
      if (200..<400).contains(status) || !policy.retryableStatuses.contains(status) {
        return .finish
      }
      retryAfter = (status == 429 || status == 503) ? after : nil
    case .failure(let kind):
      guard policy.isRetryable(kind) else { return .finish }
      retryAfter = nil
    }
    guard retrySafe, attempt < policy.maxAttempts else { return .finish }
    let delay: Duration
    if let retryAfter {
      guard retryAfter <= policy.maxRetryAfter else { return .finish }
      delay = retryAfter
    } else {
      delay = policy.backoffCap(afterAttempt: attempt).scaled(by: random.nextUnit())
    }
    attempt += 1
    return .retry(after: delay)
  }
}
