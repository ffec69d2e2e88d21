import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

/// Retries under the simulated backend, in virtual time. Each test reads as a timeline: the
/// client sleeps (a sleeper appears on the clock), the test checks the delay and advances.
@Suite("Retries")
struct RetryBehaviourTests {
  let clock = TestClock()
  let backend: SimulatedTransport

  init() {
    backend = SimulatedTransport(seed: 1, clock: clock)
    backend.route(.get, "/users/{id}") { request in
      try .json(User(id: Int(request.parameters["id"]!)!, name: "Ada"))
    }
    backend.route(.post, "/users") { request in
      try .json(request.decodeBody(User.self), status: 201)
    }
  }

  func client(_ policy: RetryPolicy) -> HTTPClient {
    makeClient(backend, clock: clock, middleware: [RetryMiddleware(policy: policy, seed: 9)])
  }

  @Test func serverErrorsAreRetriedUntilTheLimitThenSurfaced() async throws {
    backend.inject(.serverError(status: 503), times: 10)
    let client = client(RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(100)))
    let call = Task {
      await networkError { try await client.send(Endpoint<User>(.get, "/users/1")) }
    }
    // attempt:   1        2        3        4
    // backoff:     ≤100ms   ≤200ms   ≤400ms   (full jitter: uniform below the cap)
    for cap in [100, 200, 400] {
      await clock.waitForSleepers(count: 1)
      let delay = try #require(pendingDelay(clock))
      #expect(delay >= .zero && delay <= .milliseconds(cap))
      await clock.run()
    }
    let error = try #require(await call.value)
    #expect(error.kind == .http(status: 503, bodyExcerpt: "simulated server error"))
    #expect(error.attempt == 4)
    #expect(backend.requestCount == 4)
    #expect(clock.sleeperCount == 0)
  }

  @Test func aRetriedRequestSucceedsOnceTheFaultsStop() async throws {
    backend.inject(.serverError(status: 500), times: 2)
    let client = client(RetryPolicy(maxAttempts: 5))
    let call = Task { try await client.send(Endpoint<User>(.get, "/users/7")) }
    for _ in 0..<2 {
      await clock.waitForSleepers(count: 1)
      await clock.run()
    }
    #expect(try await call.value == User(id: 7, name: "Ada"))
    #expect(backend.requestCount == 3)
  }

  @Test func postWithoutIdempotencyKeyIsSentOnce() async throws {
    backend.inject(.serverError(status: 503), times: 3)
    let client = client(RetryPolicy(maxAttempts: 5))
    let error = try #require(
      await networkError {
        try await client.send(Endpoint<User>(.post, "/users", body: User(id: 3, name: "Lin")))
      })
    #expect(error.kind == .http(status: 503, bodyExcerpt: "simulated server error"))
    #expect(error.attempt == 1)
    #expect(backend.requestCount == 1)
    #expect(clock.sleeperCount == 0)
  }

  @Test func postWithoutIdempotencyKeyIsNotRetriedAfterADrop() async throws {
    backend.inject(.dropConnection, times: 1)
    let client = client(RetryPolicy(maxAttempts: 5))
    let error = try #require(
      await networkError {
        try await client.send(Endpoint<User>(.post, "/users", body: User(id: 3, name: "Lin")))
      })
    guard case .transport = error.kind else {
      Issue.record("expected a transport error, got \(error)")
      return
    }
    #expect(backend.requestCount == 1)
  }

  @Test func postWithIdempotencyKeyIsRetriedWithTheSameKey() async throws {
    backend.inject(.serverError(status: 503), times: 1)
    let client = client(RetryPolicy(maxAttempts: 3))
    let endpoint = Endpoint<User>(
      .post, "/users", body: User(id: 3, name: "Lin"), idempotencyKey: "create-3")
    let call = Task { try await client.send(endpoint) }
    await clock.waitForSleepers(count: 1)
    await clock.run()
    #expect(try await call.value == User(id: 3, name: "Lin"))
    let keys = backend.exchanges.map { $0.request.headers["Idempotency-Key"] }
    #expect(keys == ["create-3", "create-3"])
  }

  @Test func tooManyRequestsWaitsExactlyRetryAfter() async throws {
    backend.inject(.tooManyRequests(retryAfter: .seconds(7)), times: 1)
    let client = client(RetryPolicy(maxAttempts: 3))
    let call = Task { try await client.send(Endpoint<User>(.get, "/users/2")) }
    await clock.waitForSleepers(count: 1)
    #expect(pendingDelay(clock) == .seconds(7))
    await clock.advance(by: .seconds(6))
    #expect(backend.requestCount == 1)  // not yet: Retry-After is honoured, not shortened
    await clock.advance(by: .seconds(1))
    #expect(try await call.value == User(id: 2, name: "Ada"))
    #expect(backend.requestCount == 2)
  }

  @Test func retryAfterLongerThanThePolicyAllowsFailsAtOnce() async throws {
    backend.inject(.tooManyRequests(retryAfter: .seconds(3600)), times: 1)
    let client = client(RetryPolicy(maxAttempts: 3, maxRetryAfter: .seconds(60)))
    let error = try #require(
      await networkError { try await client.send(Endpoint<User>(.get, "/users/2")) })
    #expect(error.kind == .http(status: 429, bodyExcerpt: "simulated rate limit"))
    #expect(backend.requestCount == 1)
  }

  @Test func droppedConnectionsAreRetriedForIdempotentRequests() async throws {
    backend.inject(.dropConnection, times: 2)
    let client = client(RetryPolicy(maxAttempts: 3))
    let call = Task { try await client.send(Endpoint<User>(.get, "/users/5")) }
    for _ in 0..<2 {
      await clock.waitForSleepers(count: 1)
      await clock.run()
    }
    #expect(try await call.value == User(id: 5, name: "Ada"))
  }

  @Test func offlineFailsFastWithoutRetrying() async throws {
    backend.inject(.offline, times: 1)
    let client = client(RetryPolicy(maxAttempts: 3))
    let error = try #require(
      await networkError { try await client.send(Endpoint<User>(.get, "/users/5")) })
    #expect(error.kind == .offline)
    #expect(backend.requestCount == 1)
  }

  @Test func truncatedBodyIsADecodingErrorAndNotRetried() async throws {
    backend.inject(.truncatedBody, times: 1)
    let client = client(RetryPolicy(maxAttempts: 3))
    let error = try #require(
      await networkError { try await client.send(Endpoint<User>(.get, "/users/5")) })
    guard case .decoding(let path, _) = error.kind else {
      Issue.record("expected a decoding error, got \(error)")
      return
    }
    #expect(path == "")
    #expect(backend.requestCount == 1)
  }

  @Test func garbageBodyIsADecodingError() async throws {
    backend.inject(.garbageBody, times: 1)
    let client = client(.never)
    let error = try #require(
      await networkError { try await client.send(Endpoint<User>(.get, "/users/5")) })
    guard case .decoding = error.kind else {
      Issue.record("expected a decoding error, got \(error)")
      return
    }
  }

  @Test func jitterIsTheSameForTheSameSeed() async throws {
    func delays(seed: UInt64) async throws -> [Duration] {
      let clock = TestClock()
      let backend = SimulatedTransport(seed: 1, clock: clock)
      backend.route(.get, "/x") { _ in .text("ok") }
      backend.inject(.serverError(status: 502), times: 3)
      let client = makeClient(
        backend, clock: clock,
        middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 4), seed: seed)])
      let call = Task { try await client.response(for: Endpoint<NoContent>(.get, "/x")) }
      var seen: [Duration] = []
      for _ in 0..<3 {
        await clock.waitForSleepers(count: 1)
        seen.append(try #require(pendingDelay(clock)))
        await clock.run()
      }
      _ = try await call.value
      return seen
    }
    let first = try await delays(seed: 42)
    #expect(try await delays(seed: 42) == first)
    #expect(try await delays(seed: 43) != first)
  }
}
