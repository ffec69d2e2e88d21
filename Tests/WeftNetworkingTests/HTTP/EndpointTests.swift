import Foundation
import Testing
import WeftCore

@testable import WeftNetworking

@Suite("Endpoints and JSON coding")
struct EndpointTests {
  struct Event: Codable, Sendable, Equatable {
    var title: String
    var startsAt: Date
  }

  @Test func requestIsBuiltFromTheEndpoint() throws {
    let endpoint = Endpoint<User>(
      .post, "/users", query: [QueryItem("notify", "true"), QueryItem("tag", "a b")],
      headers: ["X-Trace": "t1"], body: User(id: 1, name: "Ada"), idempotencyKey: "k1")
    let request = try endpoint.makeRequest(
      baseURL: URL(string: "https://api.test/v2/")!, defaultHeaders: ["X-App": "weft"],
      coding: JSONCoding())
    #expect(request.url.absoluteString == "https://api.test/v2/users?notify=true&tag=a%20b")
    #expect(request.method == .post)
    #expect(request.headers["X-App"] == "weft")
    #expect(request.headers["X-Trace"] == "t1")
    #expect(request.headers["Idempotency-Key"] == "k1")
    #expect(request.headers["Content-Type"] == "application/json")
    #expect(String(decoding: request.body!, as: UTF8.self) == #"{"id":1,"name":"Ada"}"#)
    #expect(endpoint.name == "POST /users")
  }

  @Test(arguments: [
    (JSONCoding.DateStrategy.iso8601, #""2024-05-01T12:00:00Z""#),
    (.iso8601WithFractionalSeconds, #""2024-05-01T12:00:00.250Z""#),
    (.secondsSince1970, "1714564800.25"),
    (.millisecondsSince1970, "1714564800250"),
  ])
  func dateStrategiesRoundTrip(strategy: JSONCoding.DateStrategy, json: String) throws {
    let coding = JSONCoding(dates: strategy)
    let body = Data(#"{"title":"standup","startsAt":\#(json)}"#.utf8)
    let event = try coding.makeDecoder().decode(Event.self, from: body)
    let expected = Date(
      timeIntervalSince1970: strategy == .iso8601 ? 1_714_564_800 : 1_714_564_800.25)
    #expect(abs(event.startsAt.timeIntervalSince1970 - expected.timeIntervalSince1970) < 0.001)
    let again = try coding.makeDecoder().decode(
      Event.self, from: coding.makeEncoder().encode(event))
    #expect(
      abs(again.startsAt.timeIntervalSince1970 - event.startsAt.timeIntervalSince1970) < 0.001)
  }

  @Test func snakeCaseKeys() throws {
    struct Row: Codable, Sendable { var createdAt: Int }
    let coding = JSONCoding(keys: .snakeCase)
    let row = try coding.makeDecoder().decode(Row.self, from: Data(#"{"created_at":5}"#.utf8))
    #expect(row.createdAt == 5)
    #expect(
      String(decoding: try coding.makeEncoder().encode(row), as: UTF8.self) == #"{"created_at":5}"#)
  }

  @Test func decodingErrorsNameTheCodingPath() async throws {
    struct Page: Decodable, Sendable { var items: [Event] }
    let clock = TestClock()
    let backend = SimulatedTransport(clock: clock)
    backend.route(.get, "/events") { _ in
      HTTPResponse(
        status: 200,
        body: Data(
          #"{"items":[{"title":"a","startsAt":"2024-05-01T12:00:00Z"},{"title":"b","startsAt":17}]}"#
            .utf8))
    }
    let client = makeClient(backend, clock: clock)
    let error = try #require(
      await networkError { try await client.send(Endpoint<Page>(.get, "/events")) })
    guard case .decoding(let path, let message) = error.kind else {
      Issue.record("expected a decoding error, got \(error)")
      return
    }
    #expect(path == "items[1].startsAt")
    #expect(message.hasPrefix("expected a value of type String"))
  }

  @Test func aMissingKeyIsNamedInThePath() async throws {
    let clock = TestClock()
    let backend = SimulatedTransport(clock: clock)
    backend.route(.get, "/u") { _ in HTTPResponse(status: 200, body: Data(#"{"id":1}"#.utf8)) }
    let error = try #require(
      await networkError {
        try await makeClient(backend, clock: clock).send(Endpoint<User>(.get, "/u"))
      })
    #expect(error.kind == .decoding(codingPath: "name", message: "the key \"name\" is missing"))
  }

  @Test func noContentIgnoresTheBody() async throws {
    let clock = TestClock()
    let backend = SimulatedTransport(clock: clock)
    backend.route(.delete, "/u/1") { _ in HTTPResponse(status: 204) }
    let client = makeClient(backend, clock: clock)
    #expect(try await client.send(Endpoint<NoContent>(.delete, "/u/1")) == NoContent())
  }
}
