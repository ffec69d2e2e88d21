/// Why a statement's arguments do not go together, pointing at the argument to blame.
///
/// - Note: Isolation: a `Sendable` value.
public struct ArgumentProblem: Error, Sendable, Equatable {
  /// The argument the caret goes under (`nil`: the command's words).
  public var argument: String?
  /// What is wrong.
  public var message: String
  /// How to fix it (the usage line when `nil`).
  public var hint: String?
  /// The kind of flow error it is reported as.
  public var kind: FlowError.Kind
  /// Whether the caret goes under the whole `key=value` (an argument that does not belong)
  /// rather than under its value (a value that does not fit).
  public var blamesWholeArgument = false

  /// A problem with `argument`'s value (the caret goes under the value).
  ///
  /// - Complexity: O(1).
  public init(
    _ message: String, at argument: String? = nil, hint: String? = nil,
    kind: FlowError.Kind = .unexpectedArgument
  ) {
    self.kind = kind
    self.argument = argument
    self.message = message
    self.hint = hint
  }

  /// `'name=' applies only <reason>` under a keyword given where it does not apply.
  ///
  /// - Complexity: O(1).
  public static func notApplicable(_ keyword: String, _ reason: String) -> ArgumentProblem {
    var problem = ArgumentProblem("'\(keyword)=' applies only \(reason)", at: keyword)
    problem.blamesWholeArgument = true
    return problem
  }
}
