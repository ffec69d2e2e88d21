import SimulatorKit

extension HealthCommands {
  /// A context-tree command `name NAME [at=CONTEXT-PATH]`.
  private static func contextCommand(
    _ name: String, summary: String,
    _ perform: @escaping @MainActor @Sendable (HealthSimulation, String, String?) throws -> Void
  ) -> Command {
    Command(
      name, summary: summary, category: .contextTree,
      arguments: [.positional("name", .name, placeholder: "NAME"), .keyword("at", .contextPath)]
    ) { app, arguments in
      try perform(app, arguments.requiredText("name"), arguments.text("at"))
    }
  }

  /// The context tree.
  static let context: [Command] = [
    contextCommand(
      "context.request",
      summary: "Requests a value by name from a context (the grade-weights class context by "
        + "default); a missing or ambiguous name fails the step with the context's error."
    ) { app, name, at in _ = try app.runtime.contextRequest(name, at: at) },
    Command(
      "context.flag",
      summary: "Sets or unsets a flag on a context; setting a set flag fails the step.",
      category: .contextTree,
      arguments: [
        .positional("flag change", .word(["set", "unset"])),
        .positional("name", .name, placeholder: "NAME"), .keyword("at", .contextPath),
      ]
    ) { app, arguments in
      try app.runtime.contextFlag(
        arguments.requiredText("name"), set: arguments.text("flag change") == "set",
        at: arguments.text("at"))
    },
    contextCommand(
      "context.execute", summary: "Runs an executable by name from a context."
    ) { app, name, at in try app.runtime.contextExecute(name, at: at) },
    contextCommand(
      "context.post", summary: "Posts a notification by name to a context's observers."
    ) { app, name, at in try app.runtime.contextPost(name, at: at) },
  ]
}
