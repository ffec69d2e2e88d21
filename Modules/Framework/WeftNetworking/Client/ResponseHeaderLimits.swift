/// The most header fields, and header bytes, an ``HTTPClient`` accepts in one response.
///
/// A response past either fails the attempt with a `.transport` ``NetworkError`` whose
/// ``NetworkError/transportError`` is
/// ``TransportError/responseHeadersTooLarge(count:bytes:limits:)``, and is not retried. The
/// transport has already parsed the fields (URLSession, with libcurl's own bounds on Linux);
/// the check keeps a hostile or broken server's headers from reaching the app's code.
///
/// ```swift
/// var client = HTTPClient(baseURL: url, transport: URLSessionTransport())
/// client.responseHeaderLimits = ResponseHeaderLimits(count: 200, bytes: 128 * 1024)
/// ```
///
/// - Complexity: checking is O(h), h = header fields.
/// - Note: Isolation: a `Sendable` value.
public struct ResponseHeaderLimits: Sendable, Equatable {
  /// The most header fields: 100 by default.
  public var count: Int
  /// The most bytes of names and values together: 64 KiB by default.
  public var bytes: Int

  /// Makes limits; the defaults are far above what APIs send.
  ///
  /// - Complexity: O(1).
  public init(count: Int = 100, bytes: Int = 64 * 1024) {
    self.count = count
    self.bytes = bytes
  }

  /// The error for `headers`, or nil when they are within the limits.
  func violation(_ headers: HTTPHeaders) -> TransportError? {
    var total = 0
    for field in headers { total += field.name.utf8.count + field.value.utf8.count }
    guard headers.count > count || total > bytes else { return nil }
    return .responseHeadersTooLarge(count: headers.count, bytes: total, limits: self)
  }
}
