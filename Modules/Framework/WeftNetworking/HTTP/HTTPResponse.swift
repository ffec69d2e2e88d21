import Foundation

/// One HTTP response: status, headers and the whole body.
///
/// - Complexity: O(1) to copy (copy-on-write storage).
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the header array and body are allocated by the transport.
public struct HTTPResponse: Sendable, Equatable {
  /// The status code.
  public var status: Int
  /// The header fields.
  public var headers: HTTPHeaders
  /// The body (empty when there is none).
  public var body: Data

  /// Makes a response.
  public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Whether the status is 2xx.
  public var isSuccess: Bool { (200..<300).contains(status) }

  /// The `Retry-After` header as a delay, when it is given in seconds (RFC 9110 §10.2.3).
  ///
  /// > Note: The HTTP-date form is not read: it would tie retries to the wall clock, and
  /// > Weft schedules them on the injected clock. Such a header counts as absent.
  public var retryAfter: Duration? {
    guard let value = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces),
      let seconds = Int(value), seconds >= 0
    else { return nil }
    return .seconds(seconds)
  }

  /// The first `limit` bytes of the body as text (invalid UTF-8 replaced), with `…` when cut;
  /// what error messages quote.
  ///
  /// - Complexity: O(limit).
  public func bodyExcerpt(limit: Int = 200) -> String {
    let prefix = body.prefix(limit)
    let text = String(decoding: prefix, as: UTF8.self)
    return body.count > limit ? text + "…" : text
  }

  /// A response with `value` encoded as JSON (sorted keys, ISO 8601 dates).
  ///
  /// - Throws: `EncodingError` if `value` cannot be encoded.
  public static func json(
    _ value: some Encodable, status: Int = 200, headers: HTTPHeaders = [:],
    coding: JSONCoding = JSONCoding()
  ) throws -> HTTPResponse {
    var all = headers
    all["Content-Type"] = "application/json"
    return HTTPResponse(status: status, headers: all, body: try coding.makeEncoder().encode(value))
  }

  /// A response with a plain-text body.
  public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: Data(text.utf8))
  }
}
