import Foundation

/// A typed description of one API call: method, path, query, headers, an optional
/// `Encodable` body, and the `Decodable` type of the response.
///
/// ```swift
/// struct User: Codable, Sendable { var id: Int; var name: String }
///
/// let getUser = Endpoint<User>(.get, "/users/42")
/// let create = Endpoint<User>(.post, "/users", body: NewUser(name: "Ada"),
///                              idempotencyKey: UUID().uuidString)
/// let user = try await client.send(getUser)
/// ```
///
/// > Important: A POST or PATCH is retried only when it carries an `idempotencyKey` (sent as
/// > the `Idempotency-Key` header): without one, a retry could apply its effect twice.
///
/// - Complexity: building the ``HTTPRequest`` is O(p + q + b): path, query, encoded body.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the URL, the header array and the encoded body, once per attempt
///   sequence (retries reuse the built request).
public struct Endpoint<Response: Decodable & Sendable>: Sendable {
  /// The method.
  public var method: HTTPMethod
  /// The path, appended to the client's base URL (`/users/42`).
  public var path: String
  /// Query items, in order.
  public var query: [QueryItem]
  /// Extra headers, set over the client's defaults.
  public var headers: HTTPHeaders
  /// The body, encoded as JSON with the client's ``JSONCoding``.
  public var body: (any Encodable & Sendable)?
  /// A key the server deduplicates on; makes a non-idempotent request retry-safe.
  public var idempotencyKey: String?
  /// How long one attempt may take; `nil` uses the client's default.
  public var timeout: Duration?
  /// The name metrics and errors use; defaults to `METHOD path`. Give templated paths a
  /// stable name (`GET /users/{id}`) so the latency histogram is per endpoint, not per id.
  public var name: String

  /// Makes an endpoint.
  public init(
    _ method: HTTPMethod, _ path: String, query: [QueryItem] = [], headers: HTTPHeaders = [:],
    body: (any Encodable & Sendable)? = nil, idempotencyKey: String? = nil,
    timeout: Duration? = nil, name: String? = nil
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.idempotencyKey = idempotencyKey
    self.timeout = timeout
    self.name = name ?? "\(method) \(path)"
  }
}

/// One `name=value` pair of a URL query.
public struct QueryItem: Sendable, Equatable {
  /// The name.
  public var name: String
  /// The value (`nil` writes the bare name).
  public var value: String?

  /// Makes a query item.
  public init(_ name: String, _ value: String?) {
    self.name = name
    self.value = value
  }
}

/// The response type of endpoints whose response body is ignored (`204 No Content`).
public struct NoContent: Decodable, Sendable, Equatable {
  /// Makes the empty value.
  public init() {}
}
