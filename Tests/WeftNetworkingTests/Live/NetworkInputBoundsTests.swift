import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

/// Every bound on what the network sends, against a real server on 127.0.0.1: past each,
/// a typed error, never a crash or an unbounded allocation. (The response body's own tests
/// are `ResponseBodyLimitTests`; the WebSocket message's, `POSIXWebSocketDeflateTests` and
/// `WebSocketConnectionMachineTests`.)
@Suite("Bounds on network input against a loopback server")
struct NetworkInputBoundsTests {
  struct OK: Decodable, Sendable { var ok: Bool }

  func client(_ base: URL) -> HTTPClient {
    HTTPClient(
      baseURL: base, transport: URLSessionTransport(),
      middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3), seed: 1)],
      defaultTimeout: .seconds(30))
  }

  @Test func theDefaultsAreDocumented() {
    #expect(ResponseHeaderLimits() == ResponseHeaderLimits(count: 100, bytes: 64 * 1024))
    #expect(JSONCoding().maximumNestingDepth == 64)
    #expect(JSONCoding.defaultMaximumNestingDepth == 64)
    #expect(WebSocketConfiguration().maxMessageSize == 16 * 1024 * 1024)
    #expect(WebSocketHandshake.maxResponseHeader == 16 * 1024)
  }

  @Test func tooManyHeaderFieldsFailWithATypedErrorAndAreNotRetried() async throws {
    try await withLoopbackServer { server in
      let within = try await client(server.baseURL).send(
        Endpoint<OK>(.get, "/headers", query: [QueryItem("count", "50")]))
      #expect(within.ok)
      let error = try #require(
        await networkError {
          try await client(server.baseURL).send(
            Endpoint<OK>(.get, "/headers", query: [QueryItem("count", "150")]))
        })
      guard case .responseHeadersTooLarge(let count, _, let limits)? = error.transportError
      else {
        Issue.record("expected responseHeadersTooLarge, got \(error)")
        return
      }
      #expect(count > 150)
      #expect(limits == ResponseHeaderLimits())
      #expect(error.attempt == 1)
      #expect(
        error.description.hasSuffix(
          "raise HTTPClient.responseHeaderLimits if such headers are expected"))
    }
  }

  @Test func headerBytesPastTheLimitFailAndTheLimitCanBeRaised() async throws {
    try await withLoopbackServer { server in
      // 20 fields of 4 KiB: 80 KiB of values, within the count, over 64 KiB.
      let endpoint = Endpoint<OK>(
        .get, "/headers", query: [QueryItem("count", "20"), QueryItem("size", "4096")])
      let error = try #require(
        await networkError { try await client(server.baseURL).send(endpoint) })
      guard case .responseHeadersTooLarge(_, let bytes, _)? = error.transportError else {
        Issue.record("expected responseHeadersTooLarge, got \(error)")
        return
      }
      #expect(bytes > 64 * 1024)
      var raised = client(server.baseURL)
      raised.responseHeaderLimits.bytes = 256 * 1024
      #expect(try await raised.send(endpoint).ok)
    }
  }

  @Test func jsonNestedPastTheLimitFailsBeforeDecoding() async throws {
    try await withLoopbackServer { server in
      let shallow = try await client(server.baseURL).send(
        Endpoint<[[Int]]>(.get, "/nested", query: [QueryItem("depth", "2")]))
      #expect(shallow == [[]])
      // 100,000 levels: deep enough to exhaust a recursive decoder's stack.
      let deep = Endpoint<[[Int]]>(.get, "/nested", query: [QueryItem("depth", "100000")])
      let error = try #require(await networkError { try await client(server.baseURL).send(deep) })
      #expect(
        error.kind
          == .decoding(
            codingPath: "",
            message: "the JSON nests arrays and objects deeper than the limit of 64 levels "
              + "(JSONCoding.maximumNestingDepth); it was not decoded"))
    }
  }

  @Test func nestingIsCountedOutsideStringsOnly() {
    let text = Data(#"{"a": "[[[[[[[[[[\"{{{{", "b": [[1]]}"#.utf8)
    #expect(!JSONNesting.exceeds(3, in: text))
    #expect(JSONNesting.exceeds(2, in: text))
  }
}
