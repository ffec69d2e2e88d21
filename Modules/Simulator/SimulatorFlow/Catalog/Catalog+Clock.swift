extension Catalog {
  /// The virtual clock and waiting.
  static let clock: [CommandSpec] = [
    CommandSpec(
      FlowCommand(
        "clock advance", usage: "clock advance DURATION",
        summary: "Advances the virtual clock, running what falls due in deadline order.",
        category: .clock),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let value = try reader.requireValue("DURATION")
        return .advanceClock(try reader.duration(value, "clock advance"))
      }),
    CommandSpec(
      FlowCommand(
        "wait", usage: "wait PATH OP VALUE [timeout=DURATION]",
        summary: "Runs until the condition holds (fails after the virtual timeout).",
        keywords: ["timeout"], category: .clock),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let condition = try reader.condition()
        return .wait(condition, timeout: try timeout(reader))
      }),
  ]

  /// `timeout=`, which must be positive.
  private static func timeout(_ reader: ArgumentReader) throws(FlowError) -> Duration? {
    guard let syntax = reader.keyword("timeout") else { return nil }
    let duration = try reader.duration(syntax, "timeout=")
    guard duration > .zero else {
      throw reader.source.error(
        .valueOutOfRange, at: syntax.span, "timeout= must be longer than 0s",
        hint: "leave it out to use the runner's default timeout")
    }
    return duration
  }

  /// Expectations.
  static let checks: [CommandSpec] = [
    CommandSpec(
      FlowCommand(
        "expect", aliases: ["assert"], usage: "expect PATH ==|!=|<|<=|>|>=|contains VALUE",
        summary: "Fails the step unless the observed value at PATH compares as written; the "
          + "report shows expected and actual.",
        category: .checks),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        .expect(try reader.condition())
      })
  ]
}
