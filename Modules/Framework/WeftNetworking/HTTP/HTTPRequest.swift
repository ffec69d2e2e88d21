import Foundation

/// One HTTP request as a transport sends it: method, absolute URL, headers and body.
///
/// Endpoints build these (see ``Endpoint``); middleware may rewrite them (the auth middleware
/// sets `Authorization`).
///
/// - Complexity: O(1) to copy (copy-on-write storage).
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the URL, header array and body are allocated by their builders.
public struct HTTPRequest: Sendable, Equatable, CustomStringConvertible {
  /// The method.
  public var method: HTTPMethod
  /// The absolute URL, query included.
  public var url: URL
  /// The header fields.
  public var headers: HTTPHeaders
  /// The body, if any.
  public var body: Data?

  /// Makes a request.
  public init(method: HTTPMethod, url: URL, headers: HTTPHeaders = [:], body: Data? = nil) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }

  /// The header that marks a non-idempotent request as safe to retry.
  public static let idempotencyKeyHeader = "Idempotency-Key"

  /// Whether a retry cannot apply the request's effect twice: the method is idempotent, or the
  /// request carries an `Idempotency-Key` header the server deduplicates on.
  public var isRetrySafe: Bool {
    method.isIdempotent || headers[Self.idempotencyKeyHeader] != nil
  }

  /// `METHOD URL`, the way log lines name a request.
  public var description: String { "\(method) \(url.absoluteString)" }
}
