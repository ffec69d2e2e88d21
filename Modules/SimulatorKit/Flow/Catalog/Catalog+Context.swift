extension Catalog {
  /// A context-tree command `name NAME [at=PATH]`.
  private static func contextCommand(
    _ name: String, summary: String,
    _ make: @escaping @Sendable (String, String?) -> StepKind
  ) -> CommandSpec {
    CommandSpec(
      FlowCommand(
        name, usage: "\(name) NAME [at=CONTEXT-PATH]", summary: summary, keywords: ["at"],
        category: .contextTree),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let nameSyntax = try reader.requireValue("NAME")
        let contextual = try reader.name(nameSyntax, "a name")
        let at = try reader.keyword("at").map { (value) throws(FlowError) in
          try reader.contextPath(value)
        }
        return make(contextual, at)
      })
  }

  /// The context tree.
  static let context: [CommandSpec] = [
    contextCommand(
      "context.request",
      summary: "Requests a value by name from a context (the grade-weights class context by "
        + "default); a missing or ambiguous name fails the step with the context's error."
    ) { .contextRequest(name: $0, at: $1) },
    CommandSpec(
      FlowCommand(
        "context.flag", usage: "context.flag set|unset NAME [at=CONTEXT-PATH]",
        summary: "Sets or unsets a flag on a context; setting a set flag fails the step.",
        keywords: ["at"], category: .contextTree),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let changeSyntax = try reader.requireValue("set|unset")
        let change = try reader.word(changeSyntax, StepKind.FlagChange.self)
        let nameSyntax = try reader.requireValue("NAME")
        let name = try reader.name(nameSyntax, "a flag name")
        let at = try reader.keyword("at").map { (value) throws(FlowError) in
          try reader.contextPath(value)
        }
        return .contextFlag(change, name: name, at: at)
      }),
    contextCommand(
      "context.execute", summary: "Runs an executable by name from a context."
    ) { .contextExecute(name: $0, at: $1) },
    contextCommand(
      "context.post", summary: "Posts a notification by name to a context's observers."
    ) { .contextPost(name: $0, at: $1) },
  ]
}
