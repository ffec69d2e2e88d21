import Foundation

/// Walks the parsed statements in order: binds variables, unrolls loops, builds each step
/// from its command's builder, and enforces the one-time statements and the limits.
///
/// - Complexity: O(s·a + w), s = steps produced, a = arguments per step (statements without
///   variables are built once), w = statements evaluated, at most `workLimit`.
struct Evaluator {
  let environment: Environment
  private var steps: [Step] = []
  /// Steps produced so far.
  var stepCount: Int { steps.count }
  /// Statements evaluated so far (steps, lets, flow/seed/date and loop iterations).
  private var work = 0
  private let workLimit: Int
  private var name: (value: String, line: Int)?
  private var seed: (value: UInt64, line: Int)?
  /// The wall clock at launch given by `date INSTANT` (`Evaluator+Date.swift`).
  var wallClock: (value: Date, line: Int)?
  private var sawStatement = false
  private var views = ViewGroups()
  /// Steps of statements without variables, by statement id.
  private var cache: [Int: StepKind] = [:]
  /// The spans of the enclosing `repeat`s, outermost first.
  private var loops: [Span] = []
  /// Errors of top-level steps found so far: validation goes on past them.
  private var collected: [FlowError] = []
  /// The `together` block being evaluated, if any (`Evaluator+Together.swift`).
  var together: TogetherBlock.Open?
  /// `together` blocks evaluated so far: the next block's group number.
  var togetherBlocks = 0

  init(environment: Environment) {
    self.environment = environment
    let (limit, overflow) = environment.options.maxSteps.multipliedReportingOverflow(by: 8)
    self.workLimit = overflow ? .max : max(100_000, limit)
  }

  var source: Source { environment.source }

  mutating func evaluate(_ statements: [Statement]) throws(FlowError) -> Flow {
    var scope = Scope()
    // `--define NAME=VALUE`: bound before the flow's first line (line 0), so a top-level
    // `let` of the same name is a default the command line overrides.
    for (name, text) in environment.options.defines.sorted(by: { $0.key < $1.key }) {
      let value: Resolved =
        if case .number(let number) = NumberText.parse(text) {
          .number(number)
        } else {
          .text(text, quoted: true)
        }
      scope.define(name, Scope.Binding(value: value, line: 0))
    }
    do {
      try run(statements, scope: &scope, depth: 0, iterations: [])
    } catch {
      collected.append(error)
    }
    guard var first = collected.first else {
      return Flow(
        name: name?.value, seed: seed?.value, date: wallClock?.value, file: source.file,
        steps: steps)
    }
    let rest = collected.dropFirst().prefix(Flow.maxReportedErrors - 1)
    first.followingErrors = rest.isEmpty ? nil : Array(rest)
    throw first
  }

  mutating func run(
    _ statements: [Statement], scope: inout Scope, depth: Int, iterations: [Int]
  ) throws(FlowError) {
    for statement in statements {
      try charge(statement)
      switch statement.spec.role {
      case .flowName: try flowName(statement, scope: scope, depth: depth)
      case .seed: try seed(statement, scope: scope, depth: depth)
      case .date: try date(statement, scope: scope, depth: depth)
      case .letBinding: try bind(statement, scope: &scope)
      case .repeatBlock:
        try repeatBlock(statement, scope: &scope, depth: depth, iterations: iterations)
      case .togetherBlock:
        do {
          try togetherBlock(statement, scope: &scope, depth: depth, iterations: iterations)
        } catch  where iterations.isEmpty && depth == 0 && error.kind != .stepCapExceeded {
          // A bad top-level block, like a bad top-level step: report it and go on.
          together = nil
          collected.append(error)
          if collected.count >= Flow.maxReportedErrors { throw collected.removeLast() }
        }
      case .step(let build):
        do {
          try step(statement, build: build, scope: scope, iterations: iterations)
        } catch  where iterations.isEmpty && error.kind != .stepCapExceeded {
          // A bad top-level step defines nothing later statements need: report it and go
          // on, up to the limit. Inside a loop its error would repeat every iteration.
          collected.append(error)
          if collected.count >= Flow.maxReportedErrors { throw collected.removeLast() }
        }
      }
      sawStatement = true
    }
  }

  func makeReader(_ statement: Statement, _ scope: Scope) -> ArgumentReader {
    ArgumentReader(statement: statement, environment: environment, scope: scope, views: views)
  }

  // MARK: Steps

  private mutating func step(
    _ statement: Statement, build: (inout ArgumentReader) throws(FlowError) -> StepKind,
    scope: Scope, iterations: [Int]
  ) throws(FlowError) {
    let cacheable = statement.spec.cacheable && !statement.usesVariables
    let kind: StepKind
    if cacheable, let cached = cache[statement.id] {
      kind = cached
    } else {
      var reader = makeReader(statement, scope)
      kind = try build(&reader)
      try reader.finish()
      views = reader.views
      if cacheable { cache[statement.id] = kind }
    }
    guard steps.count < environment.options.maxSteps else {
      throw stepCap(at: loops.first ?? statement.commandSpan)
    }
    try checkTogether(kind, statement)
    steps.append(
      Step(
        kind: kind, location: source.location(statement.commandSpan),
        length: statement.span.length, sourceLine: source.line(statement.commandSpan.line),
        iterations: iterations, together: together?.group))
  }

  private func stepCap(at span: Span) -> FlowError {
    source.error(
      .stepCapExceeded, at: span,
      "flow expands to more than \(NumberText.grouped(environment.options.maxSteps)) steps",
      hint: "lower a repeat count, or split the flow into several files")
  }

  private mutating func charge(_ statement: Statement) throws(FlowError) {
    work += 1
    guard work > workLimit else { return }
    throw source.error(
      .stepCapExceeded, at: loops.first ?? statement.commandSpan,
      "flow evaluates more than \(NumberText.grouped(workLimit)) statements while unrolling "
        + "(steps, lets and loop iterations)",
      hint: "lower a repeat count, or move 'let' out of the loop")
  }

  // MARK: Loops

  private mutating func repeatBlock(
    _ statement: Statement, scope: inout Scope, depth: Int, iterations: [Int]
  ) throws(FlowError) {
    var reader = makeReader(statement, scope)
    let countSyntax = try reader.requireValue("N")
    let count = try repeatCount(countSyntax, reader)
    var variable = "i"
    var word = reader.next()
    if let asWord = word, !Self.isTogetherWord(asWord) {
      try Self.rejectMisspeltTogether(asWord, reader)
      try reader.literal("as", asWord)
      let nameArgument = try reader.require("NAME")
      variable = try reader.variableName(nameArgument)
      word = reader.next()
    }
    if let togetherWord = word { try reader.literal("together", togetherWord) }
    let startsTogether = word != nil
    try reader.finish()
    let body = statement.block ?? []
    var perIteration = 0
    for child in body {
      let (sum, overflow) = perIteration.addingReportingOverflow(child.minimumSteps)
      perIteration = overflow ? .max : sum
    }
    if perIteration > 0 {
      let (total, overflow1) = count.multipliedReportingOverflow(by: perIteration)
      let (after, overflow2) = steps.count.addingReportingOverflow(total)
      if overflow1 || overflow2 || after > environment.options.maxSteps {
        throw stepCap(at: loops.first ?? statement.commandSpan.through(countSyntax.span))
      }
    }
    loops.append(statement.commandSpan.through(countSyntax.span))
    let line = statement.commandSpan.line
    let opened = try startsTogether ? openTogether(statement) : nil
    for iteration in 1...count {
      if iteration > 1 { try charge(statement) }
      scope.push([variable: Scope.Binding(value: .number(.integer(iteration)), line: line)])
      try run(body, scope: &scope, depth: depth + 1, iterations: iterations + [iteration])
      scope.pop()
    }
    if let opened { try closeTogether(opened, statement) }
    loops.removeLast()
  }

  private func repeatCount(
    _ value: ValueSyntax, _ reader: ArgumentReader
  ) throws(FlowError)
    -> Int
  {
    let resolved = try reader.resolve(value)
    var count: Int?
    switch resolved {
    case .number(.integer(let integer)): count = integer
    case .number(.decimal(let decimal)): count = Int(exactly: decimal)
    case .text(let text, quoted: false):
      switch NumberText.parse(text) {
      case .number(.integer(let integer)): count = integer
      case .number(.decimal(let decimal)): count = Int(exactly: decimal)
      case .tooLarge, .invalid: break
      }
    case .text(_, quoted: true): break
    }
    guard let count, count > 0 else {
      throw source.error(
        .badRepeatCount, at: value.span,
        "repeat count must be a positive whole number, got \(resolved.display)",
        hint: "write repeat N { ... } with N of at least 1")
    }
    return count
  }

  // MARK: Variables

  private mutating func bind(_ statement: Statement, scope: inout Scope) throws(FlowError) {
    let reader = makeReader(statement, scope)
    guard !statement.keywords.isEmpty else { throw reader.missing("NAME = VALUE") }
    try reader.finish()
    for keyword in statement.keywords {
      let value = try makeReader(statement, scope).resolve(keyword.value)
      if let existing = scope.localBinding(keyword.name) {
        if existing.line == 0 { continue }  // given with --define: the command line wins
        throw source.error(
          .duplicateVariable, at: keyword.span,
          "variable '$\(keyword.name)' is already defined on line \(existing.line)",
          hint: "use another name; a variable can be redefined only in a nested block")
      }
      scope.define(keyword.name, Scope.Binding(value: value, line: keyword.span.line))
    }
  }

  // MARK: Flow name and seed

  private mutating func flowName(
    _ statement: Statement, scope: Scope, depth: Int
  )
    throws(FlowError)
  {
    if depth > 0 {
      throw source.error(
        .misplacedStatement, at: statement.commandSpan,
        "'flow' must be at the top level, not inside a block",
        hint: "move it to the first line of the file")
    }
    if let name {
      throw source.error(
        .duplicateFlow, at: statement.commandSpan,
        "duplicate 'flow': the flow is already named on line \(name.line)",
        hint: "keep one 'flow \"name\"' line")
    }
    if sawStatement {
      throw source.error(
        .misplacedStatement, at: statement.commandSpan,
        "'flow' must come before other statements", hint: "move it to the first line of the file")
    }
    var reader = makeReader(statement, scope)
    let value = try reader.requireValue("\"NAME\"")
    let text = try reader.text(value)
    try reader.finish()
    name = (text, statement.commandSpan.line)
  }

  private mutating func seed(_ statement: Statement, scope: Scope, depth: Int) throws(FlowError) {
    if depth > 0 {
      throw source.error(
        .misplacedStatement, at: statement.commandSpan,
        "'seed' must be at the top level, not inside a block",
        hint: "move it near the top of the file")
    }
    if let seed {
      throw source.error(
        .duplicateSeed, at: statement.commandSpan,
        "duplicate 'seed': the seed is already set on line \(seed.line)",
        hint: "keep one 'seed N' line")
    }
    var reader = makeReader(statement, scope)
    let value = try reader.requireValue("N")
    let resolved = try reader.resolve(value)
    var parsed: UInt64?
    switch resolved {
    case .number(.integer(let integer)): parsed = UInt64(exactly: integer)
    case .number(.decimal(let decimal)): parsed = UInt64(exactly: decimal)
    case .text(let text, quoted: false):
      parsed = UInt64(text.filter { $0 != "_" })
      if parsed == nil, NumberText.looksNumeric(text) {
        throw source.error(
          .badNumber, at: value.span, "bad number '\(text)' for seed",
          hint: "a seed is a whole number from 0 to \(UInt64.max)")
      }
    case .text(_, quoted: true): break
    }
    guard let parsed else {
      throw source.error(
        .wrongValueKind, at: value.span,
        "expected a whole number for seed, got \(resolved.display)",
        hint: "a seed is a whole number from 0 to \(UInt64.max)")
    }
    try reader.finish()
    seed = (parsed, statement.commandSpan.line)
  }
}
