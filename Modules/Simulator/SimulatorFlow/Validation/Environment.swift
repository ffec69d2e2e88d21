import Foundation

/// What validation needs besides the statements: the source (for errors), the known paths,
/// the dates and the limits.
struct Environment: Sendable {
  let source: Source
  let options: Flow.ParseOptions
  /// The known paths and every proper prefix of one, or `nil` to accept any path.
  let acceptedPaths: Set<String>?
  /// Keyed paths the app declared (`room[NAME].unread`), matched by shape.
  let patterns: [PathPattern]
  /// `acceptedPaths`, sorted, for deterministic suggestions.
  let sortedPaths: [String]
  let dates: DateText

  /// The most headless views a flow may have attached at once.
  static let maxViews = 10_000_000

  init(source: Source, knownPaths: Set<String>?, options: Flow.ParseOptions) {
    self.source = source
    self.options = options
    self.dates = DateText(options: options)
    let patterns = (knownPaths ?? []).compactMap(PathPattern.init).sorted {
      $0.description < $1.description
    }
    self.patterns = patterns
    if let knownPaths {
      let plain = knownPaths.filter { PathPattern($0) == nil }
      var accepted = plain
      for path in plain {
        var prefix = ""
        for segment in path.split(separator: ".", omittingEmptySubsequences: false).dropLast() {
          prefix += prefix.isEmpty ? String(segment) : "." + segment
          accepted.insert(prefix)
        }
      }
      self.acceptedPaths = accepted
      self.sortedPaths = (accepted.union(patterns.map(\.description))).sorted()
    } else {
      self.acceptedPaths = nil
      self.sortedPaths = []
    }
  }

  /// Whether a flow may name `path`: a known path or a prefix of one, or a path of a keyed
  /// path's shape (or a prefix of that shape); any path when the known paths are not given.
  ///
  /// - Complexity: O(1) for a known path; O(p · s) through the p keyed paths.
  func accepts(_ path: String) -> Bool {
    guard let acceptedPaths else { return true }
    if acceptedPaths.contains(path) { return true }
    return patterns.contains { $0.key(in: path) != nil || $0.hasPrefix(path) }
  }

  /// Whether `text` is a dotted path: names of letters, digits and `_` separated by `.`,
  /// the first starting with a letter or `_`.
  static func isPath(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, Lexer.isNameStart(first) else { return false }
    let segments = text.split(separator: ".", omittingEmptySubsequences: false)
    return segments.allSatisfy { segment in
      !segment.isEmpty && segment.unicodeScalars.allSatisfy(Lexer.isNameContinue)
    }
  }
}

/// A value after variables and `$(...)` are substituted, before it is read as a particular
/// kind.
enum Resolved: Sendable, Equatable {
  case text(String, quoted: Bool)
  case number(Number)

  /// The value's text, as it is concatenated or typed into a field.
  var plainText: String {
    switch self {
    case .text(let text, _): text
    case .number(let number): number.text
    }
  }

  /// How the value reads in a message: `'5x'`, `"ada"` for a string, `'72'`.
  var display: String {
    switch self {
    case .text(let text, quoted: true): "the string \"\(text)\""
    case .text(let text, quoted: false): "'\(text)'"
    case .number(let number): "'\(number.text)'"
    }
  }
}

/// The variables visible at a point of the flow: one frame per block, innermost last.
struct Scope: Sendable {
  struct Binding: Sendable {
    var value: Resolved
    /// The line the variable was defined on.
    var line: Int
  }

  private var frames: [[String: Binding]] = [[:]]

  func lookup(_ name: String) -> Binding? {
    for frame in frames.reversed() {
      if let binding = frame[name] { return binding }
    }
    return nil
  }

  /// The names visible here, innermost first, for suggestions.
  var visibleNames: [String] {
    var seen = Set<String>()
    var names: [String] = []
    for frame in frames.reversed() {
      for name in frame.keys.sorted() where seen.insert(name).inserted { names.append(name) }
    }
    return names
  }

  /// The binding of `name` in the innermost frame, if any.
  func localBinding(_ name: String) -> Binding? { frames.last?[name] }

  mutating func define(_ name: String, _ binding: Binding) {
    if frames.isEmpty { frames.append([:]) }
    frames[frames.count - 1][name] = binding
  }

  mutating func push(_ frame: [String: Binding] = [:]) { frames.append(frame) }

  mutating func pop() {
    if frames.count > 1 { frames.removeLast() }
  }
}
