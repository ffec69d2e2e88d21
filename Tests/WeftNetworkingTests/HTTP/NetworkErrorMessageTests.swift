import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

/// Error text is API: each message is pinned here, word for word.
@Suite("NetworkError messages")
struct NetworkErrorMessageTests {
  func error(_ kind: NetworkError.Kind) -> String {
    NetworkError(
      kind, method: .get, url: URL(string: "https://api.test/users/42")!,
      endpoint: "GET /users/{id}", attempt: 3
    ).description
  }

  let prefix = "GET https://api.test/users/42 [GET /users/{id}, attempt 3]: "

  @Test func everyKindReadsAsOneLogLine() {
    let expected: [(NetworkError.Kind, String)] = [
      (
        .offline,
        "offline: the device has no network path — queue the work and retry when "
          + "NetworkAvailability reports the network back"
      ),
      (
        .timeout(after: .seconds(5)),
        "timed out after 5.0 seconds without a response — raise the endpoint's timeout, or "
          + "check that the server is up and answering"
      ),
      (
        .cancelled,
        "cancelled: the calling task was cancelled and the transport call with it — nothing "
          + "to fix unless the cancellation was unexpected"
      ),
      (
        .http(status: 404, bodyExcerpt: "no such user"),
        "HTTP 404: \"no such user\" — not found: check the path and the identifiers in it"
      ),
      (
        .http(status: 503, bodyExcerpt: "overloaded"),
        "HTTP 503: \"overloaded\" — the server failed; still failing after 3 attempts "
          + "(retried as the retry policy allows)"
      ),
      (
        .decoding(codingPath: "items[2].createdAt", message: "expected a number"),
        "the response did not decode at items[2].createdAt: expected a number — check the "
          + "response type against what the server sends, and the date strategy"
      ),
      (
        .transport(message: "cannot connect to the server (refused)"),
        "transport failure: cannot connect to the server (refused) — check the URL and that "
          + "the server is reachable"
      ),
      (
        .authentication(message: "revoked"),
        "the bearer token could not be refreshed after a 401: revoked — sign in again"
      ),
      (
        .encoding(message: "bad body"),
        "the request could not be built: bad body — fix the endpoint definition"
      ),
    ]
    for (kind, text) in expected {
      #expect(error(kind) == prefix + text)
      #expect(!error(kind).contains("\n"))
    }
  }

  @Test func aFirstAttemptNeverClaimsARetry() {
    func firstAttempt(_ kind: NetworkError.Kind) -> String {
      NetworkError(
        kind, method: .post, url: URL(string: "https://api.test/users")!,
        endpoint: "POST /users", attempt: 1
      ).description
    }
    let prefix = "POST https://api.test/users [POST /users, attempt 1]: "
    #expect(
      firstAttempt(.http(status: 503, bodyExcerpt: "overloaded"))
        == prefix + "HTTP 503: \"overloaded\" — the server failed; not retried (no "
        + "RetryMiddleware, a request that is not retry-safe, or a status the policy does not "
        + "retry) — try again later")
    #expect(
      firstAttempt(.http(status: 429, bodyExcerpt: "slow down"))
        == prefix + "HTTP 429: \"slow down\" — rate limited: not retried (no RetryMiddleware, "
        + "a request that is not retry-safe, or a Retry-After past the policy's limit); slow "
        + "down the caller")
    #expect(
      error(.http(status: 429, bodyExcerpt: "slow down"))
        == self.prefix + "HTTP 429: \"slow down\" — rate limited: still limited after 3 "
        + "attempts (retried as Retry-After allowed); slow down the caller")
  }

  @Test func aServerErrorWithoutRetriesSaysItWasNotRetried() async throws {
    let clock = TestClock()
    let backend = SimulatedTransport(clock: clock)
    backend.route(.get, "/users/{id}") { _ in try .json(User(id: 1, name: "Ada")) }
    backend.inject(.serverError(status: 503), times: 1)
    let client = makeClient(backend, clock: clock)
    let error = try #require(
      await networkError { try await client.send(Endpoint<User>(.get, "/users/1")) })
    #expect(error.attempt == 1)
    #expect(backend.requestCount == 1)
    #expect(error.description.contains("not retried"))
    #expect(!error.description.contains("retried as"))
  }

  @Test func aServerErrorAfterRetriesSaysHowManyAttempts() async throws {
    let clock = TestClock()
    let backend = SimulatedTransport(clock: clock)
    backend.route(.get, "/users/{id}") { _ in try .json(User(id: 1, name: "Ada")) }
    backend.inject(.serverError(status: 503), times: 2)
    let client = makeClient(
      backend, clock: clock,
      middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 2, baseDelay: .zero))])
    let error = try #require(
      await networkError { try await client.send(Endpoint<User>(.get, "/users/1")) })
    #expect(error.attempt == 2)
    #expect(backend.requestCount == 2)
    #expect(error.description.contains("still failing after 2 attempts"))
  }
}
