/// HTTP header fields in order, looked up case-insensitively.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers["content-type"]          // "application/json"
/// headers["Authorization"] = "Bearer abc"
/// ```
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
  }

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
        fields.append(Field(name: name, value: newValue))
      }
    }
  }

  /// Number of fields.
  public var count: Int { fields.count }

  /// The fields in order.
  public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

  /// Returns these headers with every field of `other` set over them.
  public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
    var merged = self
    for field in other { merged[field.name] = field.value }
    return merged
  }

  public var description: String {
    fields.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
  }
}
