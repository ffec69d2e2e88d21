/// A command of the flow language, as the reference documents it: its words, usage,
/// arguments and a one-line summary.
///
/// A `CommandCatalog` (the engine's commands plus a plug-in's) is what the parser resolves
/// statements against; the language reference (`docs/simulator-language.md`) lists the same
/// commands, and a test keeps the two in step.
///
/// - Note: Isolation: a `Sendable` value.
public struct FlowCommand: Sendable, Hashable {
  /// Where a command is listed in `--help` and the language reference: the engine's
  /// parts (`script`, `views`, `clock`, `checks`) and the ones a plug-in declares.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct Category: Sendable, Hashable, CustomStringConvertible {
    /// A short identifier (`auth`, `notes`).
    public let id: String
    /// The heading it is listed under (`Login and session`).
    public let title: String

    /// Makes a category.
    ///
    /// - Complexity: O(1).
    public init(_ id: String, title: String) {
      self.id = id
      self.title = title
    }

    public var description: String { id }

    /// `flow`, `seed`, `let`, `repeat`, `log`.
    public static let script = Category("script", title: "Script")
    /// Attaching and detaching headless views.
    public static let views = Category("views", title: "Views")
    /// The virtual clock and waiting.
    public static let clock = Category("clock", title: "Clock and waiting")
    /// Expectations.
    public static let checks = Category("checks", title: "Checks")
  }

  /// The command's words, space-separated: `login`, `network fault`, `views detach all`.
  public let name: String
  /// Other spellings that mean the same command.
  public let aliases: [String]
  /// The usage line: `network latency DURATION [jitter=DURATION]`.
  public let usage: String
  /// What the command does, in one line.
  public let summary: String
  /// The `key=` arguments the command accepts (without `=`), in documentation order.
  public let keywords: [String]
  /// The part of the app the command drives.
  public let category: Category
  /// Whether the command takes a `{ ... }` block (`repeat`).
  public let takesBlock: Bool

  /// The names of the arguments declared secret (`CommandArgument.secret()`): their values
  /// are masked in everything written about a flow. The one declaration every writer
  /// reads (reports, traces, diagnostics, recordings).
  public let secretArguments: Set<String>

  /// Keywords of which a statement must give at least one (`login.set`).
  let requiresOneOf: [String]
  /// The places, among the literal and positional arguments in declaration order, of the
  /// secret positional ones.
  let secretPositions: Set<Int>

  package init(
    _ name: String, aliases: [String] = [], usage: String, summary: String,
    keywords: [String] = [], category: Category, takesBlock: Bool = false,
    requiresOneOf: [String] = [], secretArguments: Set<String> = [],
    secretPositions: Set<Int> = []
  ) {
    self.requiresOneOf = requiresOneOf
    self.secretArguments = secretArguments
    self.secretPositions = secretPositions
    self.name = name
    self.aliases = aliases
    self.usage = usage
    self.summary = summary
    self.keywords = keywords
    self.category = category
    self.takesBlock = takesBlock
  }
}
