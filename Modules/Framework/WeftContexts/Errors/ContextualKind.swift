/// The four kinds of contextual a context holds, as named in messages.
///
/// - Note: Isolation: a `Sendable` value.
public enum ContextualKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// A value answered by name (`addRequestable`, `request`).
  case requestable
  /// A callback reached by posts (`addObserver`, `post`).
  case observer
  /// A named boolean (`setFlag`, `flagIsSet`).
  case flag
  /// A function run by name (`addExecutable`, `execute`).
  case executable

  public var description: String { rawValue }

  /// The kind with its indefinite article ("a requestable", "an observer").
  var withArticle: String {
    switch self {
    case .requestable, .flag: "a \(rawValue)"
    case .observer, .executable: "an \(rawValue)"
    }
  }

  /// The call that adds one, for "how to fix" hints.
  var adder: String {
    switch self {
    case .requestable: "addRequestable(_:requesting:)"
    case .observer: "addObserver(_:calling:)"
    case .flag: "setFlag(_:)"
    case .executable: "addExecutable(_:executing:)"
    }
  }

  /// The query that says whether a use would succeed, and the throwing twin of the use.
  var checkAndTwin: String {
    switch self {
    case .requestable: "isRequestable(_:) first, call tryRequest(_:)"
    case .executable: "isExecutable(_:) first, call tryExecute(_:)"
    case .observer: "the condition first"
    case .flag: "flagIsSet(_:) first"
    }
  }

  /// The call that uses one, for messages.
  var user: String {
    switch self {
    case .requestable: "request"
    case .observer: "post"
    case .flag: "flagIsSet"
    case .executable: "execute"
    }
  }
}
