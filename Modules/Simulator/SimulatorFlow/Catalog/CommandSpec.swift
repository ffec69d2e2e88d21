/// A command of the catalog with what the evaluator does with it.
package struct CommandSpec: Sendable {
  /// How a statement of this command is evaluated.
  enum Role: Sendable {
    /// `flow "name"`.
    case flowName
    /// `seed N`.
    case seed
    /// `date INSTANT`.
    case date
    /// `let NAME = VALUE`.
    case letBinding
    /// `repeat N [as NAME] [together] { ... }`.
    case repeatBlock
    /// `together { ... }`: the block's app commands start together, as tasks.
    case togetherBlock
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

/// The flow language a flow is parsed against: the engine's commands (script, views, clock,
/// waits and checks) and a plug-in's, with lookup by name or alias and the candidates for
/// "did you mean" suggestions.
///
/// - Complexity: made once per plug-in, O(c·w), c = commands, w = words per name.
/// - Note: Isolation: immutable; any isolation.
public final class CommandCatalog: Sendable, Equatable {
  let specs: [CommandSpec]
  /// Index into `specs` by every name and alias.
  let byName: [String: Int]
  /// Every name and alias prepared for suggestions, by word count (index 0 is one word).
  let namesByWordCount: [Suggestion.Candidates]
  /// The most words any command name has.
  let maxWords: Int

  /// Every command, the engine's first, in documentation order.
  public var commands: [FlowCommand] { specs.map(\.command) }

  /// The categories of the commands, in first-use order.
  public var categories: [FlowCommand.Category] {
    var seen: [FlowCommand.Category] = []
    for command in commands where !seen.contains(command.category) {
      seen.append(command.category)
    }
    return seen
  }

  /// The engine's commands alone: `flow`, `seed`, `let`, `repeat`, `log`, views, clock,
  /// waits and expectations.
  public static let engine = CommandCatalog(plugin: [])

  package init(plugin: [CommandSpec]) {
    let specs = Self.engineSpecs + plugin
    var table: [String: Int] = [:]
    for (index, spec) in specs.enumerated() {
      for name in [spec.name] + spec.command.aliases {
        precondition(
          table[name] == nil,
          "the command name '\(name)' is declared twice (by '\(specs[table[name] ?? 0].name)' "
            + "and '\(spec.name)'); every command name and alias must be unique")
        table[name] = index
      }
    }
    let allNames = specs.flatMap { [$0.name] + $0.command.aliases }
    let maxWords = allNames.map { $0.split(separator: " ").count }.max() ?? 1
    self.specs = specs
    self.byName = table
    self.secretKeywordNames = specs.reduce(into: []) { names, spec in
      names.formUnion(spec.command.secretArguments.filter(spec.command.keywords.contains))
    }
    self.maxWords = maxWords
    self.namesByWordCount = (1...maxWords).map { count in
      Suggestion.Candidates(allNames.filter { $0.split(separator: " ").count == count })
    }
  }

  /// The names of `command`'s arguments declared secret (`CommandArgument.secret()`), by
  /// name or alias; empty for an unknown command. What a writer of steps outside the flow
  /// file (a recording of `AppStep`s) reads to mask the same values the reports mask.
  ///
  /// - Complexity: O(1) expected.
  public func secretArguments(of command: String) -> Set<String> {
    byName[command].map { specs[$0].command.secretArguments } ?? []
  }

  /// Every keyword some command declares secret: what the parser masks in a statement whose
  /// command it does not know (`logn password=…`).
  let secretKeywordNames: Set<String>

  /// Catalogs are equal when they are the same catalog.
  public static func == (lhs: CommandCatalog, rhs: CommandCatalog) -> Bool { lhs === rhs }

  static let engineSpecs: [CommandSpec] =
    Catalog.script + Catalog.views + Catalog.clock
    + Catalog.checks
}

/// The engine's command declarations, by part.
enum Catalog {}
