import Foundation

/// What a simulated route's handler receives: the request, the path parameters its pattern
/// captured, and the query.
///
/// - Complexity: O(1) to copy; `decodeBody` is O(b), b = body size.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the query dictionary, once per request.
public struct SimulatedRequest: Sendable {
  /// The request as the client sent it.
  public var request: HTTPRequest
  /// Path parameters: `{id}` in `/users/{id}` → `parameters["id"]`.
  public var parameters: [String: String]
  /// Query items by name (the last value wins).
  public var query: [String: String]
  /// 1 for the first request the backend received, 2 for the next, … (all routes).
  public var sequenceNumber: Int

  /// Decodes the JSON body.
  ///
  /// - Throws: `DecodingError`, or a `TransportError.failed` if there is no body.
  public func decodeBody<T: Decodable>(
    _ type: T.Type, coding: JSONCoding = JSONCoding()
  ) throws -> T {
    guard let body = request.body else { throw TransportError.failed("the request has no body") }
    return try coding.makeDecoder().decode(type, from: body)
  }
}

/// One request the simulated backend received, for assertions.
///
/// - Complexity: O(1).
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: one log entry per request.
public struct SimulatedExchange: Sendable, Equatable {
  /// The request.
  public var request: HTTPRequest
  /// The route pattern that matched, or `nil` if none did.
  public var route: String?
  /// The fault injected, if any.
  public var fault: SimulatedFault?
  /// The latency drawn for it.
  public var latency: Duration
}
