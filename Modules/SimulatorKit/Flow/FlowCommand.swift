/// A command of the flow language, as the reference documents it: its words, usage,
/// arguments and a one-line summary.
///
/// `FlowCommand.all` is the catalog the parser resolves statements against; the language
/// reference (`docs/simulator-language.md`) lists the same commands, and a test keeps the two
/// in step.
///
/// - Note: Isolation: a `Sendable` value.
public struct FlowCommand: Sendable, Hashable {
  /// The part of the app a command drives, for grouping in references and reports.
  public enum Category: String, Sendable, Hashable, CaseIterable {
    /// `flow`, `seed`, `let`, `repeat`, `log`.
    case script
    /// Attaching and detaching headless views.
    case views
    /// Login, logout and the session.
    case auth
    /// The dashboard.
    case dashboard
    /// The health-data entry form.
    case healthForm
    /// The grade-weights form.
    case gradeWeights
    /// Requests, flags, executables and notifications of the context tree.
    case contextTree
    /// Tabs, navigation, sheets, alerts and feature flags.
    case appState
    /// The virtual network and the realtime connection.
    case network
    /// The virtual clock and waiting.
    case clock
    /// Expectations.
    case checks
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

  /// Every command, in documentation order.
  ///
  /// - Complexity: O(1).
  public static var all: [FlowCommand] { Catalog.commands }

  init(
    _ name: String, aliases: [String] = [], usage: String, summary: String,
    keywords: [String] = [], category: Category, takesBlock: Bool = false
  ) {
    self.name = name
    self.aliases = aliases
    self.usage = usage
    self.summary = summary
    self.keywords = keywords
    self.category = category
    self.takesBlock = takesBlock
  }
}
