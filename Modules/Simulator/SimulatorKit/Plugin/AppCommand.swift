import SimulatorFlow

/// A command an app adds to the flow language, declared once: its words, aliases, summary,
/// category, typed arguments, cross-argument rules and what it does.
///
/// The engine builds the usage line from the arguments (unless `usage` is given), checks
/// every statement against the declaration before the run (all-or-nothing, with
/// `file:line:col` diagnostics and "did you mean" suggestions), lists the command in
/// `--help` and the language reference by category, and calls `perform` on the MainActor
/// when the step runs. An error `perform` throws fails the step with its message; it never
/// ends the process.
///
/// ```swift
/// AppCommand<NotesSimulation>(
///   "note.add", summary: "Adds a note.", category: .init("notes", title: "Notes"),
///   arguments: [.keyword("title", .text, required: true)]
/// ) { app, arguments in
///   try await app.notes.add(title: arguments.requiredText("title"))
/// }
/// ```
///
/// - Note: Isolation: a `Sendable` value; `perform` runs on the MainActor.
public struct AppCommand<App: SimulatedApp>: Sendable {
  /// What the flow language knows of the command.
  public let command: FlowCommand
  /// The arguments, in usage order.
  public let arguments: [CommandArgument]
  /// Rules between arguments (`to=` only with `range=custom`), run after each argument was
  /// read and checked on its own.
  public let check: (@Sendable (CommandArguments) throws(ArgumentProblem) -> Void)?
  /// Carries the step out.
  public let perform: @MainActor @Sendable (App, CommandArguments) async throws -> Void

  /// Declares a command.
  ///
  /// - Parameters:
  ///   - name: the command's words, space-separated (`note.add`, `network fault`).
  ///   - aliases: other spellings of the same command.
  ///   - usage: the usage line; by default built from `arguments`.
  ///   - summary: what the command does, in one line.
  ///   - category: where `--help` and the reference list it.
  ///   - arguments: the typed arguments; positional ones are read in this order. Mark a
  ///     password's `.secret()`: reports, traces and diagnostics then mask its value.
  ///   - requiresOneOf: keyword names of which a statement must give at least one.
  ///   - check: rules between arguments; throw an `ArgumentProblem` naming the argument.
  ///   - perform: what the step does, on the MainActor.
  /// - Complexity: O(a), a = arguments.
  public init(
    _ name: String, aliases: [String] = [], usage: String? = nil, summary: String,
    category: FlowCommand.Category, arguments: [CommandArgument] = [],
    requiresOneOf: [String] = [],
    check: (@Sendable (CommandArguments) throws(ArgumentProblem) -> Void)? = nil,
    perform: @escaping @MainActor @Sendable (App, CommandArguments) async throws -> Void
  ) {
    let keywords = arguments.filter { $0.position == .keyword }.map(\.name)
    let line = ([name] + arguments.map(\.usage)).joined(separator: " ")
    let ordered = arguments.filter { $0.position != .keyword }
    self.command = FlowCommand(
      name, aliases: aliases, usage: usage ?? line, summary: summary, keywords: keywords,
      category: category, requiresOneOf: requiresOneOf,
      secretArguments: Set(arguments.filter(\.isSecret).map(\.name)),
      secretPositions: Set(ordered.indices.filter { ordered[$0].isSecret }))
    self.arguments = arguments
    self.check = check
    self.perform = perform
  }
}
