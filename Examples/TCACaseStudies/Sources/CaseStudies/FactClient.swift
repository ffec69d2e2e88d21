import Foundation
import WeftDependencies
import WeftNetworking

/// Fetches a fact about a number (TCA's `FactClient`): the effects call `fetch`; tests give
/// their own.
///
/// ```swift
/// let facts = FactClient.live(http: HTTPClient(baseURL: URL(string: "http://numbersapi.com")!,
///                                               transport: URLSessionTransport()))
/// let fact = try await facts.fetch(42)
/// ```
///
/// - Note: Isolation: a `Sendable` value; `fetch` runs on the caller's task.
/// - Complexity: one request per call.
public struct FactClient: Sendable {
  /// The fact about a number.
  public var fetch: @Sendable (Int) async throws -> String

  /// The client over HTTP: `GET /{number}?json` answers `{"text": "…"}` (numbersapi.com's
  /// format).
  public static func live(http: HTTPClient) -> FactClient {
    struct Fact: Decodable { var text: String }
    return FactClient { number in
      try await http.send(Endpoint<Fact>(.get, "/\(number)", query: [QueryItem("json", nil)])).text
    }
  }
}

enum FactClientKey: DependencyKey {
  static let liveValue = FactClient.live(
    http: HTTPClient(
      baseURL: URL(string: "http://numbersapi.com")!, transport: URLSessionTransport()))
  static let testValue = FactClient(fetch: unimplemented("FactClient.fetch"))
}

extension DependencyValues {
  /// The number-fact API (live: numbersapi.com; in tests: unimplemented).
  public var factClient: FactClient {
    get { self[FactClientKey.self] }
    set { self[FactClientKey.self] = newValue }
  }
}
