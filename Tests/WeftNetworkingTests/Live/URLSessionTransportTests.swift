import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

/// The real transport against a real HTTP server on 127.0.0.1, in real time.
@Suite("URLSessionTransport against a loopback server")
struct URLSessionTransportTests {
  struct Greeting: Decodable, Sendable, Equatable {
    var id: Int
    var name: String
    var created: Date
  }

  struct Calls: Decodable, Sendable, Equatable {
    var calls: Int
  }

  func client(
    _ base: URL, retry: RetryPolicy = .never, timeout: Duration? = .seconds(10)
  ) -> HTTPClient {
    HTTPClient(
      baseURL: base, transport: URLSessionTransport(),
      middleware: [RetryMiddleware(policy: retry, seed: 1), TimeoutMiddleware()],
      defaultTimeout: timeout)
  }

  @Test func success() async throws {
    try await withLoopbackServer { server in
      let greeting = try await client(server.baseURL).send(Endpoint<Greeting>(.get, "/ok"))
      #expect(greeting.id == 1 && greeting.name == "weft")
      #expect(greeting.created == Date(timeIntervalSince1970: 1_714_564_800))
    }
  }

  @Test func notFound() async throws {
    try await withLoopbackServer { server in
      let error = try #require(
        await networkError {
          try await client(server.baseURL).send(Endpoint<Greeting>(.get, "/missing"))
        })
      #expect(error.kind == .http(status: 404, bodyExcerpt: "no route /missing"))
      #expect(
        error.description.hasPrefix(
          "GET http://127.0.0.1:\(server.httpPort)/missing [GET /missing, attempt 1]: HTTP 404"))
    }
  }

  @Test func serverErrorThenSuccessWithRetry() async throws {
    try await withLoopbackServer { server in
      let key = UUID().uuidString
      let client = client(
        server.baseURL, retry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(20)))
      let calls = try await client.send(
        Endpoint<Calls>(.get, "/flaky", query: [QueryItem("key", key), QueryItem("fail", "1")]))
      #expect(calls == Calls(calls: 2))  // one 500, then the retry succeeded
    }
  }

  @Test func slowResponsePastTheTimeoutIsCancelled() async throws {
    try await withLoopbackServer { server in
      let clock = ContinuousClock()
      let start = clock.now
      let error = try #require(
        await networkError {
          try await client(server.baseURL, timeout: .milliseconds(300))
            .send(Endpoint<Greeting>(.get, "/slow", query: [QueryItem("ms", "180000")]))
        })
      #expect(error.kind == .timeout(after: .milliseconds(300)))
      // Did not wait for the server's 30 s (a generous bound: a loaded CI machine is slow).
      #expect(clock.now - start < .seconds(90))
    }
  }

  @Test func connectionRefused() async throws {
    try await withLoopbackServer { server in
      let error = try #require(
        await networkError {
          try await client(server.refusedURL).send(Endpoint<Greeting>(.get, "/ok"))
        })
      guard case .transport(let message) = error.kind else {
        Issue.record("expected a transport error, got \(error)")
        return
      }
      #expect(message.hasPrefix("cannot connect to the server (URLError -1004"))
    }
  }

  @Test func largeBody() async throws {
    try await withLoopbackServer { server in
      let size = 8 * 1024 * 1024
      let response = try await client(server.baseURL).response(
        for: Endpoint<NoContent>(.get, "/large", query: [QueryItem("bytes", "\(size)")]))
      #expect(response.body.count == size)
      #expect(response.body.prefix(16) == Data("0123456789abcdef".utf8))
      #expect(response.body.suffix(16) == Data("0123456789abcdef".utf8))
    }
  }

  @Test func postBodyRoundTrips() async throws {
    try await withLoopbackServer { server in
      let user = try await client(server.baseURL).send(
        Endpoint<User>(.post, "/echo", body: User(id: 9, name: "Grace")))
      #expect(user == User(id: 9, name: "Grace"))
    }
  }

  @Test func cancellationCancelsTheRealCall() async throws {
    try await withLoopbackServer { server in
      let clock = ContinuousClock()
      let start = clock.now
      let client = client(server.baseURL)
      let call = Task {
        await networkError {
          try await client.send(
            Endpoint<Greeting>(.get, "/slow", query: [QueryItem("ms", "180000")]))
        }
      }
      try await clock.sleep(for: .milliseconds(100))  // real time: let the request go out
      call.cancel()
      #expect(try #require(await call.value).kind == .cancelled)
      #expect(clock.now - start < .seconds(90))  // did not wait for the server's 180 s
    }
  }
}

/// `HTTPClient.defaultTimeout` against the real transport, with no middleware at all.
@Suite("The client's own timeout against a loopback server")
struct LiveDefaultTimeoutTests {
  @Test func aSlowServerTimesOutWithoutAnyMiddleware() async throws {
    try await withLoopbackServer { server in
      let client = HTTPClient(
        baseURL: server.baseURL, transport: URLSessionTransport(),
        defaultTimeout: .milliseconds(300))
      let clock = ContinuousClock()
      let start = clock.now
      let error = try #require(
        await networkError {
          try await client.send(
            Endpoint<NoContent>(.get, "/slow", query: [QueryItem("ms", "180000")]))
        })
      #expect(error.kind == .timeout(after: .milliseconds(300)))
      // Did not wait for the server's 180 s. The bound is wide: under ThreadSanitizer on a
      // loaded 2-core machine these calls have stalled for up to 47 s before resuming.
      #expect(clock.now - start < .seconds(90))
    }
  }
}
