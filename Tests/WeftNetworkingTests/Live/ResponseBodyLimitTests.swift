import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

/// The response body limit against a real server on 127.0.0.1 that streams more than the
/// limit, in real time.
@Suite("Response body limit against a loopback server")
struct ResponseBodyLimitTests {
  static let limit = 1024 * 1024

  struct Sent: Decodable, Sendable {
    var bytes: Int
    var closed: Bool
  }

  func client(_ base: URL, limit: Int = Self.limit) -> HTTPClient {
    HTTPClient(
      baseURL: base, transport: URLSessionTransport(),
      middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3), seed: 1)],
      defaultTimeout: .seconds(30), responseBodyLimit: limit)
  }

  /// Waits (real time, bounded) until the server says the response for `key` has ended, and
  /// returns what it sent.
  func sentWhenClosed(_ server: LoopbackServer, key: String) async throws -> Sent {
    let probe = HTTPClient(
      baseURL: server.baseURL, transport: URLSessionTransport(), defaultTimeout: .seconds(5))
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(20)
    while true {
      let sent = try await probe.send(
        Endpoint<Sent>(.get, "/sent", query: [QueryItem("key", key)]))
      if sent.closed || clock.now > deadline { return sent }
      try await clock.sleep(for: .milliseconds(50))
    }
  }

  @Test func theDefaultLimitIs16MiB() {
    #expect(HTTPClient.defaultResponseBodyLimit == 16 * 1024 * 1024)
    let client = HTTPClient(
      baseURL: URL(string: "https://sim.test")!, transport: URLSessionTransport())
    #expect(client.responseBodyLimit == 16 * 1024 * 1024)
  }

  @Test func aChunkedBodyThatNeverEndsFailsOnceItPassesTheLimit() async throws {
    try await withLoopbackServer { server in
      let key = UUID().uuidString
      // 64 KiB every 2 ms, up to 1 GiB: without a limit this would run into the timeout.
      let error = try #require(
        await networkError {
          try await client(server.baseURL).response(
            for: Endpoint<NoContent>(
              .get, "/stream",
              query: [
                QueryItem("key", key), QueryItem("chunk", "65536"), QueryItem("delay_ms", "2"),
              ]))
        })
      #expect(error.transportError == .responseTooLarge(limit: Self.limit, declaredLength: nil))
      #expect(error.attempt == 1)  // never retried: it would be too large again
      #expect(
        error.description
          == "GET http://127.0.0.1:\(server.httpPort)/stream?key=\(key)&chunk=65536&delay_ms=2 "
          + "[GET /stream, attempt 1]: the response body is larger than the limit of 1 MiB: "
          + "more than that arrived — raise HTTPClient.responseBodyLimit if such a body is "
          + "expected, or ask the server for less (a page, a range)")
      // The transport hung up: the server's endless response ended, far short of 1 GiB.
      let sent = try await sentWhenClosed(server, key: key)
      #expect(sent.closed)
      #expect(sent.bytes < 256 << 20)  // stopped long before the 1 GiB the server would send
    }
  }

  @Test func aDeclaredLengthOverTheLimitIsRefusedBeforeTheBody() async throws {
    try await withLoopbackServer { server in
      let key = UUID().uuidString
      let declared = 1 << 30
      let error = try #require(
        await networkError {
          try await client(server.baseURL).response(
            for: Endpoint<NoContent>(
              .get, "/declared",
              query: [
                QueryItem("key", key), QueryItem("bytes", "\(declared)"),
                QueryItem("chunk", "65536"), QueryItem("delay_ms", "2"),
              ]))
        })
      #expect(
        error.transportError == .responseTooLarge(limit: Self.limit, declaredLength: declared))
      guard case .transport(let message) = error.kind else {
        Issue.record("expected a transport error, got \(error)")
        return
      }
      #expect(
        message
          == "the response body is larger than the limit of 1 MiB: its Content-Length is "
          + "1024 MiB; the body was not read")
      let sent = try await sentWhenClosed(server, key: key)
      #expect(sent.closed)
      #expect(sent.bytes < 256 << 20)  // far short of the declared 1 GiB
    }
  }

  @Test func aBodyOfExactlyTheLimitArrivesWhole() async throws {
    try await withLoopbackServer { server in
      let client = client(server.baseURL)
      let response = try await client.response(
        for: Endpoint<NoContent>(.get, "/large", query: [QueryItem("bytes", "\(Self.limit)")]))
      #expect(response.body.count == Self.limit)
      let chunked = try await client.response(
        for: Endpoint<NoContent>(
          .get, "/stream",
          query: [
            QueryItem("key", UUID().uuidString), QueryItem("bytes", "\(Self.limit)"),
            QueryItem("chunk", "65536"), QueryItem("delay_ms", "0"),
          ]))
      #expect(chunked.body.count == Self.limit)
      let error = try #require(
        await networkError {
          try await client.response(
            for: Endpoint<NoContent>(
              .get, "/large", query: [QueryItem("bytes", "\(Self.limit + 1)")]))
        })
      #expect(
        error.transportError
          == .responseTooLarge(limit: Self.limit, declaredLength: Self.limit + 1))
    }
  }

  @Test func anInProcessTransportIsCheckedToo() async throws {
    let clock = TestClock()
    let backend = SimulatedTransport(clock: clock)
    backend.route(.get, "/blob") { _ in HTTPResponse(status: 200, body: Data(count: 2_000)) }
    let client = HTTPClient(
      baseURL: simulatedBase, transport: backend, clock: clock,
      middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3), seed: 1)],
      defaultTimeout: nil, responseBodyLimit: 1_500)
    let error = try #require(
      await networkError { try await client.response(for: Endpoint<NoContent>(.get, "/blob")) })
    #expect(error.transportError == .responseTooLarge(limit: 1_500, declaredLength: nil))
    #expect(
      error.kind
        == .transport(
          message: "the response body is larger than the limit of 1500 bytes: more than that "
            + "arrived"))
    #expect(backend.requestCount == 1)  // not retried
  }
}
