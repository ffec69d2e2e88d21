import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

@Suite("Timeouts and cancellation")
struct TimeoutAndCancellationTests {
  let clock = TestClock()
  let backend: SimulatedTransport

  init() {
    backend = SimulatedTransport(seed: 3, clock: clock)
    backend.route(.get, "/users/{id}") { _ in try .json(User(id: 1, name: "Ada")) }
  }

  @Test func aServerThatNeverAnswersTimesOutOnTheClientClock() async throws {
    backend.inject(.timeout, times: 1)
    let client = makeClient(
      backend, clock: clock, middleware: [TimeoutMiddleware()], timeout: .seconds(2))
    let call = Task {
      await networkError { try await client.send(Endpoint<User>(.get, "/users/1")) }
    }
    await clock.waitForSleepers(count: 1)
    #expect(pendingDelay(clock) == .seconds(2))
    await clock.advance(by: .seconds(2))
    let error = try #require(await call.value)
    #expect(error.kind == .timeout(after: .seconds(2)))
    #expect(error.attempt == 1)
    #expect(backend.cancelledCount == 1)  // the hanging transport call was cancelled
  }

  @Test func eachRetryHasItsOwnTimeout() async throws {
    backend.inject(.timeout, times: 2)
    let client = makeClient(
      backend, clock: clock,
      middleware: [
        RetryMiddleware(policy: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(50))),
        TimeoutMiddleware(),
      ],
      timeout: .seconds(1))
    let call = Task {
      await networkError { try await client.send(Endpoint<User>(.get, "/users/1")) }
    }
    // t: 0 ──timeout 1s──▶ 1s ──backoff ≤50ms──▶ b ──timeout 1s──▶ b+1s
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(1))
    await clock.waitForSleepers(count: 1)
    await clock.run()
    await clock.waitForSleepers(count: 1)
    #expect(pendingDelay(clock) == .seconds(1))
    await clock.run()
    let error = try #require(await call.value)
    #expect(error.kind == .timeout(after: .seconds(1)))
    #expect(error.attempt == 2)
    #expect(backend.cancelledCount == 2)
  }

  @Test func anEndpointTimeoutOverridesTheDefault() async throws {
    backend.inject(.timeout, times: 1)
    let client = makeClient(
      backend, clock: clock, middleware: [TimeoutMiddleware()], timeout: .seconds(30))
    let endpoint = Endpoint<User>(.get, "/users/1", timeout: .milliseconds(250))
    let call = Task { await networkError { try await client.send(endpoint) } }
    await clock.waitForSleepers(count: 1)
    #expect(pendingDelay(clock) == .milliseconds(250))
    await clock.run()
    #expect(try #require(await call.value).kind == .timeout(after: .milliseconds(250)))
  }

  @Test func aSlowAnswerWithinTheTimeoutSucceeds() async throws {
    backend.setLatency(.fixed(.milliseconds(800)))
    let client = makeClient(
      backend, clock: clock, middleware: [TimeoutMiddleware()], timeout: .seconds(1))
    let call = Task { try await client.send(Endpoint<User>(.get, "/users/1")) }
    await clock.waitForSleepers(count: 2)  // the latency and the timeout
    await clock.advance(by: .milliseconds(800))
    #expect(try await call.value == User(id: 1, name: "Ada"))
    #expect(clock.sleeperCount == 0)  // the timeout's sleeper went with the call
  }

  @Test func cancellingTheCallerCancelsTheTransportCall() async throws {
    backend.setLatency(.fixed(.seconds(5)))
    let client = makeClient(
      backend, clock: clock,
      middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3)), TimeoutMiddleware()],
      timeout: .seconds(30))
    let call = Task {
      await networkError { try await client.send(Endpoint<User>(.get, "/users/1")) }
    }
    await clock.waitForSleepers(count: 2)
    call.cancel()
    let error = try #require(await call.value)
    #expect(error.kind == .cancelled)
    #expect(backend.cancelledCount == 1)
    #expect(backend.requestCount == 1)  // cancellation is never retried
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancellingAHangingCallWithoutATimeoutEndsIt() async throws {
    backend.inject(.timeout, times: 1)
    let client = makeClient(backend, clock: clock)
    let call = Task {
      await networkError { try await client.send(Endpoint<User>(.get, "/users/1")) }
    }
    await backend.waitForRequests(count: 1)
    call.cancel()
    #expect(try #require(await call.value).kind == .cancelled)
    #expect(backend.cancelledCount == 1)
  }

  @Test func cancellingDuringABackoffSendsNothingMore() async throws {
    backend.inject(.serverError(status: 503), times: 5)
    let client = makeClient(
      backend, clock: clock,
      middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 5))])
    let call = Task {
      await networkError { try await client.send(Endpoint<User>(.get, "/users/1")) }
    }
    await clock.waitForSleepers(count: 1)
    call.cancel()
    let error = try #require(await call.value)
    #expect(error.kind == .cancelled)
    #expect(error.attempt == 1)
    #expect(backend.requestCount == 1)
  }

  @Test func aCallCancelledBeforeItStartsSendsNothing() async throws {
    let client = makeClient(backend, clock: clock)
    let call = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await networkError { try await client.send(Endpoint<User>(.get, "/users/1")) }
    }
    #expect(try #require(await call.value).kind == .cancelled)
    #expect(backend.requestCount == 0)
  }
}
