import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

@Suite("Metrics")
struct MetricsTests {
  @Test func latencyIsRecordedPerEndpointInVirtualTime() async throws {
    let clock = TestClock()
    let monitor = PerformanceMonitor(enabled: true)
    let backend = SimulatedTransport(seed: 1, clock: clock, latency: .fixed(.milliseconds(30)))
    backend.route(.get, "/users/{id}") { _ in try .json(User(id: 1, name: "Ada")) }
    backend.route(.get, "/health") { _ in .text("ok") }
    let client = makeClient(
      backend, clock: clock, middleware: [MetricsMiddleware(monitor: monitor)])
    for id in 1...3 {
      let call = Task {
        try await client.send(Endpoint<User>(.get, "/users/\(id)", name: "GET /users/{id}"))
      }
      await clock.waitForSleepers(count: 1)
      await clock.run()
      _ = try await call.value
    }
    let users = try #require(monitor.metrics(for: "http GET /users/{id}"))
    #expect(users.latency.count == 3)
    #expect(users.latency.summary.max == .milliseconds(30))
    #expect(monitor.metrics(for: "http GET /health") == nil)
  }

  @Test func retriesAndBackoffsCountInTheRequestsLatency() async throws {
    let clock = TestClock()
    let monitor = PerformanceMonitor(enabled: true)
    let backend = SimulatedTransport(seed: 1, clock: clock)
    backend.route(.get, "/x") { _ in .text("ok") }
    backend.inject(.tooManyRequests(retryAfter: .seconds(2)), times: 1)
    let client = makeClient(
      backend, clock: clock,
      middleware: [MetricsMiddleware(monitor: monitor), RetryMiddleware()])
    let call = Task { try await client.response(for: Endpoint<NoContent>(.get, "/x")) }
    await clock.waitForSleepers(count: 1)
    await clock.run()
    _ = try await call.value
    #expect(monitor.metrics(for: "http GET /x")?.latency.summary.max == .seconds(2))
  }

  @Test func aDisabledMonitorRecordsNothing() async throws {
    let clock = TestClock()
    let monitor = PerformanceMonitor(enabled: false)
    let backend = SimulatedTransport(seed: 1, clock: clock)
    backend.route(.get, "/x") { _ in .text("ok") }
    let client = makeClient(
      backend, clock: clock, middleware: [MetricsMiddleware(monitor: monitor)])
    _ = try await client.response(for: Endpoint<NoContent>(.get, "/x"))
    #expect(monitor.allMetrics().isEmpty)
  }
}
