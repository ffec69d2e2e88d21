/// `together { ... }` and `repeat N together { ... }`: the app commands of the block start at
/// once, each as its own task, and settle once at the block's end. The evaluator numbers
/// each block as it unrolls it and stamps the number on the block's steps (`Step.together`);
/// the runner starts consecutive steps of one number together.
enum TogetherBlock {
  /// A block being evaluated: its group number and where it opened.
  struct Open: Sendable {
    var group: Int
    var span: Span
    var firstStep: Int
  }

  /// Steps one execution adds at least: the sum of the body's minimums (saturating).
  static func minimumSteps(of block: [Statement]?) -> Int {
    var sum = 0
    for statement in block ?? [] {
      let (next, overflow) = sum.addingReportingOverflow(statement.minimumSteps)
      sum = overflow ? .max : next
    }
    return sum
  }
}

extension Evaluator {
  /// `together { ... }`: evaluates the block with its steps stamped with a new group.
  mutating func togetherBlock(
    _ statement: Statement, scope: inout Scope, depth: Int, iterations: [Int]
  ) throws(FlowError) {
    let reader = makeReader(statement, scope)
    try reader.finish()
    let opened = try openTogether(statement)
    scope.push([:])
    try run(statement.block ?? [], scope: &scope, depth: depth + 1, iterations: iterations)
    scope.pop()
    try closeTogether(opened, statement)
  }

  /// Starts a group; a block inside another one is an error (one block already starts
  /// everything in it at once).
  mutating func openTogether(_ statement: Statement) throws(FlowError) -> TogetherBlock.Open {
    if let outer = together {
      throw source.error(
        .misplacedStatement, at: statement.commandSpan,
        "a 'together' block inside another one (opened on line \(outer.span.line))",
        hint: "the outer block already starts every command in it at once; remove the inner "
          + "'together'")
    }
    togetherBlocks += 1
    let opened = TogetherBlock.Open(
      group: togetherBlocks, span: statement.commandSpan, firstStep: stepCount)
    together = opened
    return opened
  }

  /// Ends a group; a block that started no command is an error.
  mutating func closeTogether(
    _ opened: TogetherBlock.Open, _ statement: Statement
  ) throws(FlowError) {
    together = nil
    guard stepCount == opened.firstStep else { return }
    throw source.error(
      .syntax, at: statement.commandSpan, "this 'together' block starts no command",
      hint: "put the app commands to start at once inside it: together { a ; b }")
  }

  /// Inside a block, only the app's commands may run: each becomes a task.
  func checkTogether(_ kind: StepKind, _ statement: Statement) throws(FlowError) {
    guard let open = together else { return }
    if case .app = kind { return }
    throw source.error(
      .misplacedStatement, at: statement.commandSpan,
      "'\(statement.spec.name)' cannot run inside a 'together' block (opened on line "
        + "\(open.span.line))",
      hint: "a together block starts app commands as tasks; put '\(statement.spec.name)' "
        + "after the block's '}', where its commands have settled")
  }

  /// Whether a positional argument is the word `together`.
  static func isTogetherWord(_ argument: Statement.Argument) -> Bool {
    if case .value(let value) = argument { return value.bareWord == "together" }
    return false
  }

  /// `repeat 3 togther { ... }`: says "did you mean 'together'" rather than "expected 'as'".
  static func rejectMisspeltTogether(
    _ argument: Statement.Argument, _ reader: ArgumentReader
  ) throws(FlowError) {
    guard case .value(let value) = argument, let word = value.bareWord, word != "as",
      Suggestion.nearest(to: word, among: ["together"]) != nil
    else { return }
    try reader.literal("together", argument)
  }
}
