/// A keyed path a plug-in declares once, `room[NAME].unread`, that flows use for any key:
/// `room.r42.unread`. The part in brackets stands for one path segment (names of letters,
/// digits and `_`); everything else must match as written.
///
/// ```swift
/// let pattern = PathPattern("room[NAME].unread")!
/// pattern.key(in: "room.r42.unread")   // "r42"
/// pattern.key(in: "room.r42.total")    // nil
/// ```
///
/// - Complexity: O(s) per match, s = segments.
/// - Note: Isolation: a `Sendable` value.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
  enum Segment: Sendable, Hashable {
    case literal(String)
    case key
  }

  /// The declaration as written (`room[NAME].unread`).
  public let description: String
  let segments: [Segment]

  /// Parses a declaration with one bracketed key; `nil` when `text` has none (a plain
  /// path), more than one, or a malformed one.
  ///
  /// - Complexity: O(length).
  public init?(_ text: String) {
    var segments: [Segment] = []
    var keys = 0
    for part in text.split(separator: ".", omittingEmptySubsequences: false) {
      guard let open = part.firstIndex(of: "[") else {
        guard !part.isEmpty else { return nil }
        segments.append(.literal(String(part)))
        continue
      }
      guard part.last == "]", open != part.startIndex,
        part[part.index(after: open)..<part.index(before: part.endIndex)].allSatisfy({
          $0.isLetter || $0 == "_"
        })
      else { return nil }
      segments.append(.literal(String(part[..<open])))
      segments.append(.key)
      keys += 1
    }
    guard keys == 1 else { return nil }
    self.description = text
    self.segments = segments
  }

  /// The key in `path` when `path` has this pattern's shape, else `nil`.
  ///
  /// - Complexity: O(s).
  public func key(in path: String) -> String? {
    let parts = path.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == segments.count else { return nil }
    var key: String?
    for (part, segment) in zip(parts, segments) {
      switch segment {
      case .literal(let name): guard part == name else { return nil }
      case .key:
        guard !part.isEmpty else { return nil }
        key = String(part)
      }
    }
    return key
  }

  /// Whether `path` is a proper prefix of this shape (`room`, `room.r42`), which flows may
  /// name where a prefix is accepted.
  ///
  /// - Complexity: O(s).
  func hasPrefix(_ path: String) -> Bool {
    let parts = path.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count < segments.count else { return false }
    for (part, segment) in zip(parts, segments) {
      if case .literal(let name) = segment, part != name { return false }
    }
    return true
  }
}
