import WeftCore

/// A test backend: answers after `latency` on the test clock, records every call, and marks
/// when a call saw its cancellation.
final class StubAuthBackend: Sendable {
  let calls = Recorder<Auth.Credentials>()
  let cancelled = Counter()
  private let clock: TestClock
  private let latency: Duration
  private let answer: @Sendable (Auth.Credentials, Int) -> Result<String, AuthError>

  /// - Parameter answer: the result for a call, given its credentials and its number (from 1).
  init(
    clock: TestClock, latency: Duration = .seconds(1),
    answer: @escaping @Sendable (Auth.Credentials, Int) -> Result<String, AuthError> = {
      credentials, _ in .success("token-\(credentials.username)")
    }
  ) {
    self.clock = clock
    self.latency = latency
    self.answer = answer
  }

  var api: AuthAPI {
    AuthAPI { [self] credentials in
      calls.append(credentials)
      let number = calls.count
      do {
        try await clock.sleep(for: latency)
      } catch {
        cancelled.increment()
        throw error
      }
      return try answer(credentials, number).get()
    }
  }
}
