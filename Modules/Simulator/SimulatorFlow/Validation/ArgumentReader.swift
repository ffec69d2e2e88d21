/// Reads one statement's arguments in order for a command's builder, turning each into a
/// typed value or a `FlowError` that points at it.
///
/// Builders take positional arguments with `require`/`next` (in order) and keywords by
/// name; `finish()` then rejects positional arguments nobody read.
struct ArgumentReader {
  let statement: Statement
  let environment: Environment
  let scope: Scope
  /// The attached view groups, updated by the view commands' builders.
  var views: ViewGroups
  private var consumed = 0

  init(statement: Statement, environment: Environment, scope: Scope, views: ViewGroups) {
    self.statement = statement
    self.environment = environment
    self.scope = scope
    self.views = views
  }

  var source: Source { environment.source }
  var command: String { statement.spec.name }
  var usage: String { statement.spec.command.usage }

  // MARK: Positional arguments

  /// The next positional argument, if any.
  mutating func next() -> Statement.Argument? {
    guard consumed < statement.arguments.count else { return nil }
    defer { consumed += 1 }
    return statement.arguments[consumed]
  }

  /// The next positional argument; missing, it is an error naming `placeholder`.
  mutating func require(_ placeholder: String) throws(FlowError) -> Statement.Argument {
    guard let argument = next() else { throw missing(placeholder) }
    return argument
  }

  /// The next positional argument as a value.
  mutating func requireValue(_ placeholder: String) throws(FlowError) -> ValueSyntax {
    let argument = try require(placeholder)
    return try value(argument, placeholder)
  }

  /// Fails if a positional argument was not read.
  func finish() throws(FlowError) {
    guard consumed < statement.arguments.count else { return }
    let extra = statement.arguments[consumed]
    throw source.error(
      .unexpectedArgument, at: extra.span,
      "unexpected argument '\(text(of: extra.span))' for '\(command)'",
      hint: "usage: \(usage)")
  }

  // MARK: Keyword arguments

  /// The value of `name=`, if given.
  func keyword(_ name: String) -> ValueSyntax? { statement.keyword(name)?.value }

  /// The value of `name=`; missing, it is an error.
  func requireKeyword(_ name: String) throws(FlowError) -> ValueSyntax {
    guard let value = keyword(name) else { throw missing("'\(name)='") }
    return value
  }

  /// Fails unless at least one of `names` is given.
  func requireAny(of names: [String]) throws(FlowError) {
    guard !names.contains(where: { keyword($0) != nil }) else { return }
    throw source.error(
      .missingArgument, at: statement.commandSpan,
      "'\(command)' needs at least one of \(names.map { $0 + "=" }.joined(separator: ", "))",
      hint: "usage: \(usage)")
  }

  /// Fails when `name=` is given although it does not apply; `reason` completes
  /// "'name=' applies only ...".
  func reject(_ name: String, _ reason: String) throws(FlowError) {
    guard let keyword = statement.keyword(name) else { return }
    throw source.error(
      .unexpectedArgument, at: keyword.span.through(keyword.value.span),
      "'\(name)=' applies only \(reason)", hint: "usage: \(usage)")
  }

  // MARK: Errors

  func missing(_ placeholder: String) -> FlowError {
    source.error(
      .missingArgument, at: statement.commandSpan,
      "missing argument \(placeholder) for '\(command)'", hint: "usage: \(usage)")
  }

  /// The source text under `span`.
  func text(of span: Span) -> String {
    guard span.line >= 1, span.line <= source.scalars.count else { return "" }
    let line = source.scalars[span.line - 1]
    let start = min(max(0, span.column - 1), line.count)
    let end = min(line.count, start + span.length)
    var text = ""
    text.unicodeScalars.append(contentsOf: line[start..<end])
    return text
  }

  /// A positional argument as a value; a comparison operator there is an error.
  func value(
    _ argument: Statement.Argument, _ placeholder: String
  ) throws(FlowError)
    -> ValueSyntax
  {
    switch argument {
    case .value(let value): return value
    case .comparison(let op, let span):
      throw source.error(
        .wrongValueKind, at: span, "expected \(placeholder), got '\(op.rawValue)'",
        hint: "usage: \(usage)")
    }
  }
}
