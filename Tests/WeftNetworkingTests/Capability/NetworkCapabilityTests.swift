import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

@Suite("Network capability and availability")
struct NetworkCapabilityTests {
  let clock = TestClock()

  func backend() -> SimulatedTransport {
    let backend = SimulatedTransport(clock: clock)
    backend.route(.get, "/ping") { _ in .text("pong") }
    return backend
  }

  @Test func executesThroughTheTransportWhileAvailable() async throws {
    let capability = NetworkCapability(transport: backend())
    let response = try await capability.execute(
      HTTPRequest(method: .get, url: URL(string: "https://sim.test/ping")!))
    #expect(response.body == Data("pong".utf8))
    #expect(NetworkCapability.name == "network")
  }

  @Test func failsFastWhenUnavailable() async throws {
    let backend = backend()
    let capability = NetworkCapability(
      transport: backend, availability: NetworkAvailability(available: false))
    await #expect(throws: CapabilityError.unavailable(capability: "network")) {
      try await capability.execute(
        HTTPRequest(method: .get, url: URL(string: "https://sim.test/ping")!))
    }
    #expect(backend.requestCount == 0)
  }

  @Test func theCapabilityManagerFollowsAvailability() async throws {
    let availability = NetworkAvailability()
    let capability = NetworkCapability(transport: backend(), availability: availability)
    let manager = CapabilityManager(monitor: PerformanceMonitor(enabled: false))
    var changes = availability.changes().makeAsyncIterator()
    let mirror = await capability.register(in: manager)
    defer { mirror.cancel() }
    #expect(await manager.validate(NetworkCapability.self))
    #expect(await changes.next() == true)
    availability.set(false)
    #expect(await changes.next() == false)
    // The mirror task has its own stream; wait for the manager through its state stream.
    var managerChanges = manager.cell.changes().makeAsyncIterator()
    while await manager.validate(NetworkCapability.self) { _ = await managerChanges.next() }
    await #expect(throws: CapabilityError.unavailable(capability: "network")) {
      try await manager.execute(
        NetworkCapability.self,
        with: HTTPRequest(method: .get, url: URL(string: "https://sim.test/ping")!))
    }
  }

  @Test func theOfflineMiddlewareFailsFastWithoutTouchingTheTransport() async throws {
    let backend = backend()
    let availability = NetworkAvailability(available: false)
    let client = makeClient(
      backend, clock: clock,
      middleware: [RetryMiddleware(), OfflineMiddleware(availability: availability)])
    let error = try #require(
      await networkError { try await client.response(for: Endpoint<NoContent>(.get, "/ping")) })
    #expect(error.kind == .offline)
    #expect(backend.requestCount == 0)
    availability.set(true)
    _ = try await client.response(for: Endpoint<NoContent>(.get, "/ping"))
    #expect(backend.requestCount == 1)
  }

  @Test func availabilityStreamsOnlyChanges() async {
    let availability = NetworkAvailability()
    var changes = availability.changes().makeAsyncIterator()
    #expect(await changes.next() == true)
    availability.set(true)  // no change: nothing delivered
    availability.set(false)
    #expect(await changes.next() == false)
  }
}
