import WeftCore

/// HTTP header fields in order, looked up case-insensitively.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers["content-type"]          // "application/json"
/// headers["Authorization"] = "Bearer abc"
/// headers.setSecret("k-123", for: "X-Api-Key")   // a secret of the app's own
/// print(headers)   // Content-Type: application/json, Authorization: [redacted], X-Api-Key: [redacted]
/// ```
///
/// Fields named in `defaultSecretNames` (`Authorization`, `Cookie`, `Set-Cookie`,
/// `Proxy-Authorization`) and fields set with `setSecret(_:for:)` are secret: `description`
/// (and so every message or log line that prints headers) shows `Redaction.placeholder` for
/// their values. The values themselves are sent as they are.
///
/// - Complexity: lookup and assignment are O(h), h = number of fields (headers are few).
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: one array for the fields.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral,
  CustomStringConvertible
{
  /// One header field.
  public struct Field: Sendable, Equatable {
    /// The name as given (compared case-insensitively).
    public var name: String
    /// The value.
    public var value: String
    /// Whether `description` hides the value (see `HTTPHeaders.setSecret(_:for:)`).
    public var isSecret: Bool
  }

  /// The names (lowercased) of the fields that are secret without being declared so:
  /// credentials and session cookies.
  public static let defaultSecretNames: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie",
  ]

  private var fields: [Field] = []

  /// Makes an empty set of headers.
  public init() {}

  /// Makes headers from `name: value` pairs, in order.
  public init(dictionaryLiteral elements: (String, String)...) {
    for (name, value) in elements { self[name] = value }
  }

  /// The value of the first field named `name` (any case); assigning replaces every field of
  /// that name, and assigning `nil` removes them.
  public subscript(name: String) -> String? {
    get { fields.first { $0.name.lowercased() == name.lowercased() }?.value }
    set {
      let key = name.lowercased()
      guard let newValue else {
        fields.removeAll { $0.name.lowercased() == key }
        return
      }
      if let index = fields.firstIndex(where: { $0.name.lowercased() == key }) {
        fields[index].value = newValue
        fields.removeAll { $0.name.lowercased() == key && $0.value != newValue }
      } else {
        fields.append(
          Field(name: name, value: newValue, isSecret: Self.defaultSecretNames.contains(key)))
      }
    }
  }

  /// Sets `name` to `value`, as the subscript does, and declares the field secret: its
  /// value never appears in `description`. `nil` removes the field.
  ///
  /// - Complexity: O(h), h = number of fields.
  public mutating func setSecret(_ value: String?, for name: String) {
    self[name] = value
    let key = name.lowercased()
    for index in fields.indices where fields[index].name.lowercased() == key {
      fields[index].isSecret = true
    }
  }

  /// Whether the field `name` is secret (declared, or one of `defaultSecretNames`).
  ///
  /// - Complexity: O(h), h = number of fields.
  public func isSecret(_ name: String) -> Bool {
    let key = name.lowercased()
    return fields.first { $0.name.lowercased() == key }?.isSecret
      ?? Self.defaultSecretNames.contains(key)
  }

  /// Number of fields.
  public var count: Int { fields.count }

  /// The fields in order.
  public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

  /// Returns these headers with every field of `other` set over them.
  public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
    var merged = self
    for field in other {
      if field.isSecret {
        merged.setSecret(field.value, for: field.name)
      } else {
        merged[field.name] = field.value
      }
    }
    return merged
  }

  /// `Name: value` pairs, secret values replaced by `Redaction.placeholder`.
  public var description: String {
    fields.map { "\($0.name): \($0.isSecret ? Redaction.placeholder : $0.value)" }
      .joined(separator: ", ")
  }
}
