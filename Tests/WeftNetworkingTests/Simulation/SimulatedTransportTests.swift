import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

@Suite("SimulatedTransport")
struct SimulatedTransportTests {
  let clock = TestClock()

  func request(_ method: HTTPMethod, _ path: String) -> HTTPRequest {
    HTTPRequest(method: method, url: URL(string: "https://sim.test\(path)")!)
  }

  @Test func routesMatchMethodAndPatternAndCaptureParameters() async throws {
    let backend = SimulatedTransport(clock: clock)
    backend.route(.get, "/users/{id}/posts/{post}") { request in
      .text("\(request.parameters["id"]!):\(request.parameters["post"]!):\(request.query["q"]!)")
    }
    let response = try await backend.send(request(.get, "/users/7/posts/3?q=swift"))
    #expect(String(decoding: response.body, as: UTF8.self) == "7:3:swift")
    #expect(backend.exchanges.first?.route == "/users/{id}/posts/{post}")
  }

  @Test func anUnroutedRequestGetsA404ThatSaysWhichRouteToAdd() async throws {
    let backend = SimulatedTransport(clock: clock)
    let response = try await backend.send(request(.delete, "/users/7"))
    #expect(response.status == 404)
    #expect(
      String(decoding: response.body, as: UTF8.self)
        == "no simulated route for DELETE /users/7: add one with "
        + "SimulatedTransport.route(.delete, \"/users/7\") { … }")
    #expect(backend.unmatchedRequests.map(\.url.path) == ["/users/7"])
  }

  @Test func latencyRunsOnTheInjectedClock() async throws {
    let backend = SimulatedTransport(clock: clock, latency: .fixed(.milliseconds(40)))
    backend.route(.get, "/x") { _ in .text("ok") }
    let call = Task { try await backend.send(request(.get, "/x")) }
    await clock.waitForSleepers(count: 1)
    #expect(pendingDelay(clock) == .milliseconds(40))
    await clock.run()
    #expect(try await call.value.status == 200)
    #expect(clock.now.offset == .milliseconds(40))
  }

  @Test func theSameSeedDrawsTheSameLatenciesAndFaults() async throws {
    func run(seed: UInt64) async throws -> [SimulatedExchange] {
      let clock = TestClock()
      let backend = SimulatedTransport(
        seed: seed, clock: clock,
        latency: .uniform(.milliseconds(10)...(.milliseconds(90))))
      backend.route(.get, "/x") { _ in .text("ok") }
      backend.inject(.serverError(status: 500), probability: 0.3)
      backend.inject(.garbageBody, probability: 0.2)
      for _ in 0..<40 {
        let call = Task { try await backend.send(request(.get, "/x")) }
        await clock.waitForSleepers(count: 1)
        await clock.run()
        _ = try await call.value
      }
      return backend.exchanges
    }
    let first = try await run(seed: 99)
    #expect(try await run(seed: 99) == first)
    #expect(try await run(seed: 100) != first)
    let faults = first.compactMap(\.fault)
    #expect(faults.contains(.serverError(status: 500)))
    #expect(faults.contains(.garbageBody))
    #expect(first.allSatisfy { $0.latency >= .milliseconds(10) && $0.latency <= .milliseconds(90) })
  }

  @Test func scheduledFaultsApplyToMatchingRequestsOnly() async throws {
    let backend = SimulatedTransport(clock: clock)
    backend.route(.get, "/a") { _ in .text("a") }
    backend.route(.get, "/b") { _ in .text("b") }
    backend.inject(.serverError(status: 502), times: 2, on: .get, "/b")
    #expect(try await backend.send(request(.get, "/a")).status == 200)
    #expect(try await backend.send(request(.get, "/b")).status == 502)
    #expect(try await backend.send(request(.get, "/b")).status == 502)
    #expect(try await backend.send(request(.get, "/b")).status == 200)
  }

  @Test(arguments: [
    (
      SimulatedFault.dropConnection,
      TransportError.connectionLost("simulated: the connection dropped")
    ),
    (SimulatedFault.offline, TransportError.offline("simulated: no network")),
  ])
  func connectionFaultsThrowTransportErrors(fault: SimulatedFault, expected: TransportError) async {
    let backend = SimulatedTransport(clock: clock)
    backend.route(.get, "/x") { _ in .text("ok") }
    backend.inject(fault)
    await #expect(throws: expected) { try await backend.send(request(.get, "/x")) }
  }

  @Test func bodyFaultsCorruptTheRoutesBody() async throws {
    let backend = SimulatedTransport(seed: 8, clock: clock)
    backend.route(.get, "/x") { _ in .text("0123456789abcdefghij") }
    backend.inject(.truncatedBody)
    backend.inject(.garbageBody)
    let truncated = try await backend.send(request(.get, "/x"))
    #expect(String(decoding: truncated.body, as: UTF8.self) == "0123456789")
    let garbage = try await backend.send(request(.get, "/x"))
    #expect(garbage.body.count == 20)
    #expect(garbage.body != Data("0123456789abcdefghij".utf8))
  }

  @Test func tooManyRequestsCarriesRetryAfterInSeconds() async throws {
    let backend = SimulatedTransport(clock: clock)
    backend.inject(.tooManyRequests(retryAfter: .seconds(12)))
    let response = try await backend.send(request(.get, "/x"))
    #expect(response.status == 429)
    #expect(response.headers["retry-after"] == "12")
    #expect(response.retryAfter == .seconds(12))
  }

  @Test func aHandlerThatThrowsAnswers500() async throws {
    struct Boom: Error {}
    let backend = SimulatedTransport(clock: clock)
    backend.route(.get, "/x") { _ in throw Boom() }
    #expect(try await backend.send(request(.get, "/x")).status == 500)
  }
}

extension SimulatedFault: CustomTestStringConvertible {
  public var testDescription: String { description }
}
