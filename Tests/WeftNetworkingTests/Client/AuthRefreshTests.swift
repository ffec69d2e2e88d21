import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

@Suite("Bearer auth and single-flight refresh")
struct AuthRefreshTests {
  let clock = TestClock()
  let backend: SimulatedTransport
  let rejected = Counter()
  /// Opens when the 20th request has been rejected.
  let twentyRejected = Gate()

  /// A backend that accepts only `Bearer fresh`.
  init() {
    backend = SimulatedTransport(seed: 5, clock: clock)
    let rejected = rejected
    let twentyRejected = twentyRejected
    backend.route(.get, "/me/{n}") { request in
      guard request.request.headers["Authorization"] == "Bearer fresh" else {
        if rejected.increment() == 20 { twentyRejected.open() }
        return .text("token expired", status: 401)
      }
      return try .json(User(id: Int(request.parameters["n"]!)!, name: "Ada"))
    }
  }

  @Test func twentyConcurrent401sMakeExactlyOneRefreshAndEachRetriesOnce() async throws {
    let refreshCalls = Counter()
    let twentyRejected = twentyRejected
    // The refresh waits until all 20 requests have had their 401, so the test proves they
    // share one refresh rather than racing past each other.
    let tokens = TokenStore(token: "stale") { stale in
      #expect(stale == "stale")
      refreshCalls.increment()
      await twentyRejected.wait()
      return "fresh"
    }
    let client = makeClient(
      backend, clock: clock,
      middleware: [RetryMiddleware(policy: .never), BearerAuthMiddleware(tokens: tokens)])
    let users = try await withThrowingTaskGroup(of: User.self) { group in
      for n in 1...20 {
        group.addTask { try await client.send(Endpoint<User>(.get, "/me/\(n)")) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(users.count == 20)
    #expect(refreshCalls.count == 1)
    #expect(await tokens.refreshCount == 1)
    #expect(rejected.count == 20)
    #expect(backend.requestCount == 40)  // 20 rejected + 20 retried once
  }

  @Test func aSecond401IsSurfacedWithoutAnotherRefresh() async throws {
    let tokens = TokenStore(token: "stale") { _ in "still-wrong" }
    let client = makeClient(
      backend, clock: clock, middleware: [BearerAuthMiddleware(tokens: tokens)])
    let error = try #require(
      await networkError { try await client.send(Endpoint<User>(.get, "/me/1")) })
    #expect(error.kind == .http(status: 401, bodyExcerpt: "token expired"))
    #expect(await tokens.refreshCount == 1)
    #expect(backend.requestCount == 2)
  }

  @Test func aFailedRefreshIsAnAuthenticationError() async throws {
    struct Revoked: Error, CustomStringConvertible { var description: String { "revoked" } }
    let tokens = TokenStore(token: "stale") { _ in throw Revoked() }
    let client = makeClient(
      backend, clock: clock, middleware: [BearerAuthMiddleware(tokens: tokens)])
    let error = try #require(
      await networkError { try await client.send(Endpoint<User>(.get, "/me/1")) })
    #expect(error.kind == .authentication(message: "revoked"))
  }

  @Test func aLate401ForAnAlreadyReplacedTokenDoesNotRefreshAgain() async throws {
    let tokens = TokenStore(token: "fresh") { _ in "newer" }
    let token = try await tokens.refreshedToken(replacing: "stale")
    #expect(token == "fresh")
    #expect(await tokens.refreshCount == 0)
  }

  @Test func requestsCarryTheCurrentToken() async throws {
    let tokens = TokenStore(token: "fresh") { _ in "unused" }
    let client = makeClient(
      backend, clock: clock, middleware: [BearerAuthMiddleware(tokens: tokens)])
    #expect(try await client.send(Endpoint<User>(.get, "/me/4")) == User(id: 4, name: "Ada"))
    #expect(backend.exchanges.map { $0.request.headers["authorization"] } == ["Bearer fresh"])
    #expect(await tokens.refreshCount == 0)
  }
}
