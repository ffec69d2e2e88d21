/// A route path with parameters, such as `/users/{id}/posts`, matched segment by segment.
///
/// ```swift
/// let pattern = PathPattern("/users/{id}")
/// pattern.match("/users/42")     // ["id": "42"]
/// pattern.match("/users")        // nil
/// ```
///
/// - Complexity: `match` is O(s), s = path segments.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the split path and the parameter dictionary per match.
public struct PathPattern: Sendable, Equatable, CustomStringConvertible {
  private enum Segment: Sendable, Equatable {
    case literal(String)
    case parameter(String)
    case rest
  }

  private let segments: [Segment]
  /// The pattern as written.
  public let description: String

  /// Parses `pattern`: `{name}` matches one segment, a final `*` matches any remainder.
  public init(_ pattern: String) {
    description = pattern
    segments = pattern.split(separator: "/").map { part in
      if part == "*" { return .rest }
      if part.hasPrefix("{") && part.hasSuffix("}") {
        return .parameter(String(part.dropFirst().dropLast()))
      }
      return .literal(String(part))
    }
  }

  /// The parameters if `path` (already percent-decoded, as `URL.path` gives it) matches,
  /// else `nil`.
  public func match(_ path: String) -> [String: String]? {
    let parts = path.split(separator: "/")
    var parameters: [String: String] = [:]
    for (index, segment) in segments.enumerated() {
      switch segment {
      case .rest:
        return parameters
      case .literal(let literal):
        guard index < parts.count, parts[index] == literal else { return nil }
      case .parameter(let name):
        guard index < parts.count else { return nil }
        parameters[name] = String(parts[index])
      }
    }
    return parts.count == segments.count ? parameters : nil
  }
}
