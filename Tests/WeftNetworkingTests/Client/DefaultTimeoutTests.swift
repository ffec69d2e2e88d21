import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

/// `HTTPClient.defaultTimeout` bounds each transport call by itself, without any middleware.
@Suite("The client's own timeout", .timeLimit(.minutes(5)))
struct DefaultTimeoutTests {
  let clock = TestClock()
  let backend: SimulatedTransport

  init() {
    backend = SimulatedTransport(seed: 3, clock: clock)
    backend.route(.get, "/users/{id}") { _ in try .json(User(id: 1, name: "Ada")) }
  }

  @Test func aServerThatNeverAnswersTimesOutWithNoMiddleware() async throws {
    backend.inject(.timeout, times: 1)
    let client = makeClient(backend, clock: clock, timeout: .seconds(2))
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
    #expect(clock.sleeperCount == 0)
  }

  @Test func withRetriesButNoTimeoutMiddlewareEachAttemptHasItsOwnTimeout() async throws {
    backend.inject(.timeout, times: 1)
    let client = makeClient(
      backend, clock: clock,
      middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 2, baseDelay: .zero))],
      timeout: .seconds(1))
    let call = Task { try await client.send(Endpoint<User>(.get, "/users/1")) }
    await clock.waitForSleepers(count: 1)
    #expect(pendingDelay(clock) == .seconds(1))
    await clock.advance(by: .seconds(1))  // attempt 1 times out; attempt 2 is answered
    await backend.waitForRequests(count: 2)
    #expect(try await call.value == User(id: 1, name: "Ada"))
    #expect(backend.cancelledCount == 1)
  }

  @Test func anAnswerWithinTheTimeoutLeavesNoTimerBehind() async throws {
    backend.setLatency(.fixed(.milliseconds(800)))
    let client = makeClient(backend, clock: clock, timeout: .seconds(1))
    let call = Task { try await client.send(Endpoint<User>(.get, "/users/1")) }
    await clock.waitForSleepers(count: 2)  // the latency and the client's timeout
    await clock.advance(by: .milliseconds(800))
    #expect(try await call.value == User(id: 1, name: "Ada"))
    #expect(clock.sleeperCount == 0)
  }

  @Test func withATimeoutMiddlewareTheClientAddsNoSecondTimer() async throws {
    backend.setLatency(.fixed(.milliseconds(800)))
    let client = makeClient(
      backend, clock: clock, middleware: [TimeoutMiddleware()], timeout: .seconds(1))
    let call = Task { try await client.send(Endpoint<User>(.get, "/users/1")) }
    await clock.waitForSleepers(count: 2)  // the latency and the middleware's timeout
    await backend.waitForRequests(count: 1)
    // The transport call is running, so the client has made its decision (a second timer
    // would make 3).
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .milliseconds(800))
    #expect(try await call.value == User(id: 1, name: "Ada"))
  }

  @Test func noTimeoutMeansNoTimer() async throws {
    backend.setLatency(.fixed(.milliseconds(800)))
    let client = makeClient(backend, clock: clock, timeout: nil)
    let call = Task { try await client.send(Endpoint<User>(.get, "/users/1")) }
    await clock.waitForSleepers(count: 1)
    await backend.waitForRequests(count: 1)
    #expect(clock.sleeperCount == 1)  // the latency only
    await clock.advance(by: .milliseconds(800))
    #expect(try await call.value == User(id: 1, name: "Ada"))
  }
}
