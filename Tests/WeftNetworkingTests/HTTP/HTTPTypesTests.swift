import Foundation
import Testing

@testable import WeftNetworking

@Suite("HTTP types")
struct HTTPTypesTests {
  @Test func headersAreCaseInsensitiveAndKeepOrder() {
    var headers: HTTPHeaders = ["Content-Type": "application/json", "X-A": "1"]
    headers["content-type"] = "text/plain"
    headers["X-B"] = "2"
    #expect(headers["CONTENT-TYPE"] == "text/plain")
    #expect(headers.map(\.name) == ["Content-Type", "X-A", "X-B"])
    headers["x-a"] = nil
    #expect(headers.count == 2)
  }

  @Test func secretHeadersAreRedactedInTheirDescriptionAndSentAsTheyAre() {
    var headers: HTTPHeaders = ["Content-Type": "application/json"]
    headers["Authorization"] = "Bearer token-1"
    headers["cookie"] = "session=abc"
    headers.setSecret("k-123", for: "X-Api-Key")
    #expect(
      headers.description
        == "Content-Type: application/json, Authorization: [redacted], cookie: [redacted], "
        + "X-Api-Key: [redacted]")
    #expect(headers["authorization"] == "Bearer token-1")
    #expect(headers.isSecret("x-api-key") && headers.isSecret("Set-Cookie"))
    #expect(!headers.isSecret("Content-Type"))
    // A secret field stays secret when merged over other headers.
    let base: HTTPHeaders = ["X-Api-Key": "old"]
    let merged = base.merging(headers)
    #expect(merged.isSecret("X-Api-Key"))
    #expect(!merged.description.contains("k-123"))
  }

  @Test func idempotencyDecidesRetrySafety() {
    let url = URL(string: "https://sim.test/x")!
    for method in [HTTPMethod.get, .head, .put, .delete, .options] {
      #expect(HTTPRequest(method: method, url: url).isRetrySafe)
    }
    #expect(!HTTPRequest(method: .post, url: url).isRetrySafe)
    #expect(!HTTPRequest(method: .patch, url: url).isRetrySafe)
    #expect(HTTPRequest(method: .post, url: url, headers: ["Idempotency-Key": "k"]).isRetrySafe)
  }

  @Test func retryAfterReadsSecondsAndIgnoresDates() {
    #expect(HTTPResponse(status: 429, headers: ["Retry-After": " 30 "]).retryAfter == .seconds(30))
    #expect(
      HTTPResponse(status: 429, headers: ["Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"])
        .retryAfter == nil)
    #expect(HTTPResponse(status: 429).retryAfter == nil)
  }

  @Test func bodyExcerptIsCutAndMarked() {
    let response = HTTPResponse(status: 500, body: Data(String(repeating: "x", count: 300).utf8))
    #expect(response.bodyExcerpt(limit: 5) == "xxxxx…")
    #expect(HTTPResponse(status: 500, body: Data("short".utf8)).bodyExcerpt() == "short")
  }

  @Test func pathPatterns() {
    #expect(PathPattern("/users/{id}").match("/users/42") == ["id": "42"])
    #expect(PathPattern("/users/{id}").match("/users/42/posts") == nil)
    #expect(PathPattern("/users/{id}").match("/users") == nil)
    #expect(PathPattern("/files/*").match("/files/a/b/c") == [:])
    #expect(PathPattern("/").match("/") == [:])
  }
}
