/// An HTTP request method, with what the retry layer needs to know about it.
///
/// ```swift
/// HTTPMethod.get.isIdempotent    // true: safe to retry
/// HTTPMethod.post.isIdempotent   // false: retried only with an idempotency key
/// ```
///
/// - Complexity: O(1) for every member.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: none for the predefined methods (static strings).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The method token as sent on the wire, upper case.
  public var rawValue: String

  /// Makes a method from its wire token.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// `GET`.
  public static let get = HTTPMethod(rawValue: "GET")
  /// `HEAD`.
  public static let head = HTTPMethod(rawValue: "HEAD")
  /// `POST`.
  public static let post = HTTPMethod(rawValue: "POST")
  /// `PUT`.
  public static let put = HTTPMethod(rawValue: "PUT")
  /// `PATCH`.
  public static let patch = HTTPMethod(rawValue: "PATCH")
  /// `DELETE`.
  public static let delete = HTTPMethod(rawValue: "DELETE")
  /// `OPTIONS`.
  public static let options = HTTPMethod(rawValue: "OPTIONS")

  /// Whether sending the request twice has the same effect as sending it once (RFC 9110
  /// §9.2.2): GET, HEAD, PUT, DELETE, OPTIONS and TRACE. POST and PATCH are not.
  public var isIdempotent: Bool {
    switch rawValue {
    case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
    default: false
    }
  }

  public var description: String { rawValue }
}
