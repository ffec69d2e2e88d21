import Testing

@testable import WeftNetworking

/// The pure retry machine, over every outcome, safety and attempt — synchronously.
@Suite("RetryStateMachine")
struct RetryStateMachineTests {
  static let outcomes: [RetryStateMachine.Outcome] = [
    .response(status: 200, retryAfter: nil),
    .response(status: 304, retryAfter: nil),
    .response(status: 404, retryAfter: nil),
    .response(status: 401, retryAfter: nil),
    .response(status: 429, retryAfter: .seconds(5)),
    .response(status: 429, retryAfter: nil),
    .response(status: 500, retryAfter: nil),
    .response(status: 503, retryAfter: .seconds(2)),
    .failure(.timeout(after: .seconds(1))),
    .failure(.transport(message: "lost")),
    .failure(.offline),
    .failure(.cancelled),
    .failure(.decoding(codingPath: "id", message: "bad")),
  ]

  static func expectedRetryable(_ outcome: RetryStateMachine.Outcome) -> Bool {
    switch outcome {
    case .response(let status, _): [429, 500, 503].contains(status)
    case .failure(let kind):
      kind == .timeout(after: .seconds(1)) || kind == .transport(message: "lost")
    }
  }

  @Test(arguments: outcomes)
  func everyOutcomeForEverySafetyAndAttempt(outcome: RetryStateMachine.Outcome) {
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100))
    for retrySafe in [true, false] {
      var machine = RetryStateMachine(
        policy: policy, retrySafe: retrySafe, random: SeededRandom(seed: 1))
      for attempt in 1...policy.maxAttempts {
        #expect(machine.attempt == attempt)
        let action = machine.attemptFinished(outcome)
        let shouldRetry =
          retrySafe && Self.expectedRetryable(outcome) && attempt < policy.maxAttempts
        switch action {
        case .finish:
          #expect(!shouldRetry, "attempt \(attempt), retrySafe \(retrySafe)")
        case .retry(let delay):
          #expect(shouldRetry, "attempt \(attempt), retrySafe \(retrySafe)")
          if case .response(_, let after?) = outcome {
            #expect(delay == after)
          } else {
            #expect(delay >= .zero && delay <= policy.backoffCap(afterAttempt: attempt))
          }
        }
        if action == .finish { break }
      }
    }
  }

  @Test func backoffCapsGrowExponentiallyUpToTheMaximum() {
    let policy = RetryPolicy(
      baseDelay: .milliseconds(100), multiplier: 2, maxDelay: .milliseconds(500))
    let caps = (1...5).map { policy.backoffCap(afterAttempt: $0) }
    #expect(caps == [100, 200, 400, 500, 500].map { .milliseconds($0) })
  }

  @Test func fullJitterSpreadsOverTheWholeRange() {
    var machine = RetryStateMachine(
      policy: RetryPolicy(maxAttempts: 1000, baseDelay: .seconds(1), maxDelay: .seconds(1)),
      retrySafe: true, random: SeededRandom(seed: 11))
    var delays: [Duration] = []
    for _ in 0..<500 {
      guard case .retry(let delay) = machine.attemptFinished(.failure(.transport(message: "x")))
      else { break }
      delays.append(delay)
    }
    #expect(delays.count == 500)
    #expect(delays.min()! < .milliseconds(20))
    #expect(delays.max()! > .milliseconds(980))
  }

  @Test func maxAttemptsOfOneNeverRetries() {
    var machine = RetryStateMachine(policy: .never, retrySafe: true, random: SeededRandom(seed: 1))
    #expect(machine.attemptFinished(.response(status: 503, retryAfter: nil)) == .finish)
  }
}

extension RetryStateMachine.Outcome: CustomTestStringConvertible {
  public var testDescription: String {
    switch self {
    case .response(let status, let after): "HTTP \(status)\(after.map { " after \($0)" } ?? "")"
    case .failure(let kind): "\(kind)"
    }
  }
}
