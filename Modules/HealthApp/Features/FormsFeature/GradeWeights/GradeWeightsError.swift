import WeftContexts

/// Why a grade-weights operation was refused. Context misuse surfaces as the context's own
/// typed error (`.context`, with `ContextError`'s exact text).
///
/// - Note: Isolation: a `Sendable` value.
public enum GradeWeightsError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A context operation failed (a name not visible, ambiguous, a flag already set, …).
  case context(ContextError)
  /// No context of the form has that path.
  case unknownContext(path: String, known: [String])
  /// No category has that name.
  case unknownCategory(String, known: [String])
  /// A number of assessments that is not a whole number of at least 1.
  case invalidCount(String, category: String)

  public var description: String {
    switch self {
    case .context(let error):
      error.description
    case .unknownContext(let path, let known):
      "no context of the grade-weights form has the path '\(path)'. Use one of "
        + known.map { "'\($0)'" }.joined(separator: ", ") + "."
    case .unknownCategory(let name, let known):
      "the grade-weights form has no category '\(name)'. Use one of "
        + known.map { "'\($0)'" }.joined(separator: ", ") + "."
    case .invalidCount(let text, let category):
      "'\(text)' is not a number of assessments for '\(category)': enter a whole number of at "
        + "least 1."
    }
  }
}

/// A requestable's value as the form's programmatic API returns it.
///
/// - Note: Isolation: a `Sendable` value.
public enum GradeRequestedValue: Sendable, Equatable, CustomStringConvertible {
  /// A weight (`nil` when the field holds no number).
  case weight(Double?)
  /// A count.
  case count(Int)
  /// A yes/no value.
  case bool(Bool)
  /// The grade basis.
  case basis(GradeBasis)
  /// Any other value, described.
  case other(String)

  init(_ value: Any) {
    switch value {
    case let basis as GradeBasis: self = .basis(basis)
    case let bool as Bool: self = .bool(bool)
    case let count as Int: self = .count(count)
    case let weight as Double?: self = .weight(weight)
    default: self = .other(String(describing: value))
    }
  }

  public var description: String {
    switch self {
    case .weight(let weight): weight.map(formatWeight) ?? "nil"
    case .count(let count): String(count)
    case .bool(let bool): String(bool)
    case .basis(let basis): basis.rawValue
    case .other(let text): text
    }
  }
}
