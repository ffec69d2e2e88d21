/// A command of the catalog with what the evaluator does with it.
struct CommandSpec: Sendable {
  /// How a statement of this command is evaluated.
  enum Role: Sendable {
    /// `flow "name"`.
    case flowName
    /// `seed N`.
    case seed
    /// `let NAME = VALUE`.
    case letBinding
    /// `repeat N [as NAME] { ... }`.
    case repeatBlock
    /// A step, built from the statement's arguments.
    case step(@Sendable (inout ArgumentReader) throws(FlowError) -> StepKind)
  }

  let command: FlowCommand
  let role: Role
  /// Whether a statement that uses no variable builds the same step every time it runs (so
  /// the evaluator builds it once per statement). `false` for commands with side checks,
  /// such as attaching and detaching views.
  let cacheable: Bool

  init(_ command: FlowCommand, _ role: Role, cacheable: Bool = true) {
    self.command = command
    self.role = role
    self.cacheable = cacheable
  }

  var name: String { command.name }
}

/// The catalog: every command, and lookup by name or alias.
enum Catalog {
  static let specs: [CommandSpec] =
    script + views + auth + dashboard + forms + context + app
    + network + checks

  static let commands: [FlowCommand] = specs.map(\.command)

  /// Index into `specs` by every name and alias.
  static let byName: [String: Int] = {
    var table: [String: Int] = [:]
    for (index, spec) in specs.enumerated() {
      for name in [spec.name] + spec.command.aliases where table[name] == nil {
        table[name] = index
      }
    }
    return table
  }()

  /// Every name and alias, in catalog order, for suggestions.
  static let allNames: [String] = specs.flatMap { [$0.name] + $0.command.aliases }

  /// Every name and alias prepared for suggestions, by word count (index 0 is one word).
  static let namesByWordCount: [Suggestion.Candidates] = (1...maxWords).map { count in
    Suggestion.Candidates(allNames.filter { $0.split(separator: " ").count == count })
  }

  /// The most words any command name has.
  static let maxWords: Int = allNames.map { $0.split(separator: " ").count }.max() ?? 1
}
