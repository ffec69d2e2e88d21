/// Turns tokens into statements: groups glued tokens into values, `key=value` into keyword
/// arguments, resolves each statement's command against the catalog (longest match of its
/// leading words), checks keyword names, and nests blocks.
///
/// - Complexity: O(t + s·w·c), t = tokens, s = statements, w = command words tried (≤ 3),
///   c = catalog size for the suggestion when a command is unknown.
struct Parser {
  let tokens: [Token]
  let source: Source
  let options: Flow.ParseOptions
  private var index = 0
  private var nextID = 0
  /// Errors of top-level statements the parser skipped to go on (an unknown command, a bad
  /// keyword), in source order: `Flow.parse` reports them with the rest.
  private(set) var skippedErrors: [FlowError] = []
  /// Where the values of secret arguments are, and the variables passed to them, gathered
  /// as each statement is read — also for a statement that is then rejected (`SecretMask`).
  private(set) var secrets = SecretMask()

  init(tokens: [Token], source: Source, options: Flow.ParseOptions) {
    self.tokens = tokens
    self.source = source
    self.options = options
  }

  mutating func parseFile() throws(FlowError) -> [Statement] {
    try parseBlock(depth: 0, opener: nil)
  }

  private var current: Token { tokens[min(index, tokens.count - 1)] }

  private mutating func advance() { index = min(index + 1, tokens.count - 1) }

  /// Statements until the `}` that closes `opener` (consumed), or the end of the file.
  private mutating func parseBlock(depth: Int, opener: Token?) throws(FlowError) -> [Statement] {
    var statements: [Statement] = []
    while true {
      let token = current
      switch token.kind {
      case .newline, .semicolon:
        advance()
      case .end:
        if let opener {
          throw source.error(
            .unbalancedBrace, at: opener.span, "'{' is never closed",
            hint: "add '}' to close the block opened on line \(opener.span.line)")
        }
        return statements
      case .closeBrace:
        guard opener != nil else {
          throw source.error(
            .unbalancedBrace, at: token.span, "unexpected '}' with no matching '{'",
            hint: "remove it, or open the block with 'repeat N {'")
        }
        advance()
        return statements
      default:
        let start = index
        do {
          statements.append(try parseStatement(depth: depth))
        } catch {
          // At the top level, a statement with no brace on its line can be skipped to its
          // end, so the next ones are still checked; anything else ends the parse.
          guard depth == 0, skippedErrors.count < Flow.maxReportedErrors - 1,
            skipLine(from: start)
          else { throw error }
          skippedErrors.append(error)
          continue
        }
        let after = current
        switch after.kind {
        case .newline, .semicolon, .closeBrace, .end: break
        default:
          throw source.error(
            .syntax, at: after.span, "expected ';' or a new line after '}', got \(after.display)",
            hint: "start the next statement on a new line or after ';'")
        }
      }
    }
  }

  /// Moves to the end of the line that starts at token `start` when it holds no brace.
  ///
  /// - Returns: whether it moved (`false`: the line opens or closes a block).
  private mutating func skipLine(from start: Int) -> Bool {
    var position = start
    while position < tokens.count {
      switch tokens[position].kind {
      case .newline, .semicolon, .end:
        index = position
        return true
      case .openBrace, .closeBrace:
        return false
      default:
        position += 1
      }
    }
    return false
  }

  private enum Item {
    case value(ValueSyntax)
    case keyword(Statement.Keyword)
    case comparison(StepKind.ComparisonOperator, Span)
  }

  private mutating func parseStatement(depth: Int) throws(FlowError) -> Statement {
    let first = current
    var loose = false
    if case .atom("let") = first.kind { loose = true }
    var items: [Item] = []
    while !current.endsArguments {
      let token = current
      switch token.kind {
      case .comparison(let op):
        items.append(.comparison(op, token.span))
        advance()
      case .equals:
        throw source.error(
          .syntax, at: token.span, "unexpected '='",
          hint: "write key=value with no spaces around '=', or '==' to compare")
      default:
        let value = readValue()
        if case .equals = current.kind, loose || !current.spaceBefore {
          items.append(.keyword(try readKeyword(key: value, loose: loose)))
        } else {
          items.append(.value(value))
        }
      }
    }
    let spec: CommandSpec
    let commandSpan: Span
    let wordCount: Int
    do {
      (spec, commandSpan, wordCount) = try resolveCommand(items, first: first)
    } catch {
      // An unknown command: mask what any command's secret keyword would hold.
      if !options.commands.secretKeywordNames.isEmpty {
        secrets.note(keywords(of: items), named: options.commands.secretKeywordNames)
      }
      throw error
    }
    if !spec.command.secretArguments.isEmpty {
      secrets.note(keywords(of: items), named: spec.command.secretArguments)
      secrets.note(
        positional: values(of: items.dropFirst(wordCount)), at: spec.command.secretPositions)
    }
    var span = commandSpan
    for item in items {
      switch item {
      case .value(let value): span = span.through(value.span)
      case .keyword(let keyword): span = span.through(keyword.value.span)
      case .comparison(_, let itemSpan): span = span.through(itemSpan)
      }
    }
    var arguments: [Statement.Argument] = []
    var keywords: [Statement.Keyword] = []
    // Where each key was first given: a set lookup, so a `let` with k names is O(k), not O(k²).
    var firstColumns: [String: Int] = [:]
    for item in items.dropFirst(wordCount) {
      switch item {
      case .value(let value): arguments.append(.value(value))
      case .comparison(let op, let span): arguments.append(.comparison(op, span))
      case .keyword(let keyword):
        try check(keyword, of: spec, firstColumn: firstColumns[keyword.name])
        firstColumns[keyword.name] = keyword.span.column
        keywords.append(keyword)
      }
    }
    let block = try parseBlockIfAny(spec: spec, commandSpan: commandSpan, depth: depth)
    let usesVariables =
      arguments.contains { argument in
        if case .value(let value) = argument { value.usesVariables } else { false }
      } || keywords.contains { $0.value.usesVariables }
    defer { nextID += 1 }
    return Statement(
      id: nextID, spec: spec, commandSpan: commandSpan, span: span, arguments: arguments,
      keywords: keywords,
      block: block, usesVariables: usesVariables,
      minimumSteps: Self.minimumSteps(spec: spec, arguments: arguments, block: block))
  }

  private func keywords(of items: [Item]) -> [Statement.Keyword] {
    items.compactMap { item in
      if case .keyword(let keyword) = item { keyword } else { nil }
    }
  }

  /// The positional arguments as `Statement.arguments` will hold them (`nil` for a
  /// comparison), in order.
  private func values(of items: ArraySlice<Item>) -> [ValueSyntax?] {
    items.compactMap { item in
      switch item {
      case .value(let value): .some(value)
      case .comparison: .some(nil)
      case .keyword: nil
      }
    }
  }

  /// Reads a run of value tokens with no space between them.
  private mutating func readValue() -> ValueSyntax {
    let first = current
    var parts = first.valueParts ?? []
    var span = first.span
    advance()
    while !current.spaceBefore, let more = current.valueParts {
      parts += more
      span = span.through(current.span)
      advance()
    }
    return ValueSyntax(parts: parts, span: span)
  }

  /// Reads `=value` after `key`.
  private mutating func readKeyword(
    key: ValueSyntax, loose: Bool
  ) throws(FlowError)
    -> Statement.Keyword
  {
    guard let name = key.bareWord, Self.isKeyName(name) else {
      throw source.error(
        .syntax, at: key.span, "expected an argument name before '='",
        hint: "write key=value, like email=ada@example.com")
    }
    let equals = current
    advance()
    guard current.valueParts != nil, loose || !current.spaceBefore else {
      throw source.error(
        .syntax, at: key.span.through(equals.span), "missing value after '\(name)='",
        hint: "write key=value with no spaces around '='; use \"\" for an empty value")
    }
    return Statement.Keyword(name: name, span: key.span, value: readValue())
  }

  /// Finds the longest run of leading bare words that names a command.
  private var catalog: CommandCatalog { options.commands }

  private func resolveCommand(
    _ items: [Item], first: Token
  ) throws(FlowError) -> (
    CommandSpec, Span, Int
  ) {
    var words: [(String, Span)] = []
    for item in items.prefix(catalog.maxWords) {
      guard case .value(let value) = item, let word = value.bareWord else { break }
      words.append((word, value.span))
    }
    guard !words.isEmpty else {
      let what =
        switch items.first {
        case .keyword(let keyword): "'\(keyword.name)='"
        case .comparison(let op, _): "'\(op.rawValue)'"
        case .value, nil: first.display
        }
      throw source.error(
        .syntax, at: first.span, "expected a command, got \(what)",
        hint: "a statement starts with a command word, like 'login' or 'expect'")
    }
    for count in stride(from: words.count, through: 1, by: -1) {
      let name = words[0..<count].map(\.0).joined(separator: " ")
      if let found = catalog.byName[name] {
        return (catalog.specs[found], words[0].1.through(words[count - 1].1), count)
      }
    }
    throw unknownCommand(words)
  }

  private func unknownCommand(_ words: [(String, Span)]) -> FlowError {
    var best: (name: String, distance: Int, count: Int)?
    for count in 1...words.count {
      let input = words[0..<count].map(\.0).joined(separator: " ")
      if let match = Suggestion.nearest(to: input, among: catalog.namesByWordCount[count - 1]),
        best == nil || match.distance < best?.distance ?? .max
      {
        best = (match.word, match.distance, count)
      }
    }
    if let best {
      let span = words[0].1.through(words[best.count - 1].1)
      let input = words[0..<best.count].map(\.0).joined(separator: " ")
      return source.error(
        .unknownCommand, at: span, "unknown command '\(input)'",
        hint: "did you mean '\(best.name)'?")
    }
    let head = words[0].0
    let followers = catalog.commands.compactMap { command -> String? in
      let parts = command.name.split(separator: " ")
      guard parts.count > 1, parts[0] == head else { return nil }
      return parts.dropFirst().joined(separator: " ")
    }
    if !followers.isEmpty, words.count > 1 {
      return source.error(
        .unknownCommand, at: words[0].1.through(words[1].1),
        "unknown command '\(head) \(words[1].0)'",
        hint: "'\(head)' is followed by one of: \(followers.joined(separator: ", "))")
    }
    if !followers.isEmpty {
      return source.error(
        .unknownCommand, at: words[0].1, "unknown command '\(head)'",
        hint: "'\(head)' is followed by one of: \(followers.joined(separator: ", "))")
    }
    return source.error(
      .unknownCommand, at: words[0].1, "unknown command '\(head)'",
      hint: "see docs/simulator-language.md for every command")
  }

  /// Checks a keyword's name against the command; `firstColumn` is where the same key was
  /// given before on this statement, if it was.
  private func check(
    _ keyword: Statement.Keyword, of spec: CommandSpec, firstColumn: Int?
  ) throws(FlowError) {
    if case .letBinding = spec.role {
      guard Lexer.isName(keyword.name) else {
        throw source.error(
          .syntax, at: keyword.span, "bad variable name '\(keyword.name)'",
          hint: "a variable name is a letter or '_' followed by letters, digits or '_'")
      }
    } else if !spec.command.keywords.contains(keyword.name) {
      let known = spec.command.keywords
      let hint: String =
        if let match = Suggestion.nearest(to: keyword.name, among: known) {
          "did you mean '\(match.word)='?"
        } else if known.isEmpty {
          "'\(spec.name)' takes no key=value arguments; usage: \(spec.command.usage)"
        } else {
          "'\(spec.name)' takes \(known.map { $0 + "=" }.joined(separator: ", "))"
        }
      throw source.error(
        .unknownArgument, at: keyword.span,
        "unknown argument '\(keyword.name)=' for '\(spec.name)'", hint: hint)
    }
    if let firstColumn {
      throw source.error(
        .duplicateArgument, at: keyword.span,
        "argument '\(keyword.name)=' given twice (first at column \(firstColumn))",
        hint: "keep one of them")
    }
  }

  /// Parses the block of a block-taking command (its `{` may be on a following line).
  private mutating func parseBlockIfAny(
    spec: CommandSpec, commandSpan: Span, depth: Int
  ) throws(FlowError) -> [Statement]? {
    if case .openBrace = current.kind {
      guard spec.command.takesBlock else {
        throw source.error(
          .unexpectedBlock, at: current.span, "'\(spec.name)' does not take a block",
          hint: "only 'repeat' and 'together' take a { ... } block")
      }
    } else if spec.command.takesBlock {
      var ahead = index
      while ahead < tokens.count - 1, case .newline = tokens[ahead].kind { ahead += 1 }
      guard case .openBrace = tokens[ahead].kind else {
        throw source.error(
          .unbalancedBrace, at: commandSpan, "'\(spec.name)' needs a block",
          hint: "usage: \(spec.command.usage)")
      }
      index = ahead
    } else {
      return nil
    }
    let opener = current
    guard depth + 1 <= options.maxNesting else {
      throw source.error(
        .nestingTooDeep, at: opener.span, "blocks nested deeper than \(options.maxNesting) levels",
        hint: "flatten the loops, or split the flow into several files")
    }
    advance()
    return try parseBlock(depth: depth + 1, opener: opener)
  }

  /// A key is a word of letters, digits, `.`, `-` and `_` starting with a letter.
  static func isKeyName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, Lexer.isNameStart(first) else { return false }
    return text.unicodeScalars.allSatisfy { Lexer.isNameContinue($0) || $0 == "." || $0 == "-" }
  }

  /// Steps one execution adds at least: 1 for a step, the literal count times the body's
  /// minimum for a `repeat` with a literal count, else 0. Saturates instead of overflowing.
  static func minimumSteps(
    spec: CommandSpec, arguments: [Statement.Argument], block: [Statement]?
  ) -> Int {
    switch spec.role {
    case .step: return 1
    case .flowName, .seed, .date, .letBinding: return 0
    case .togetherBlock: return TogetherBlock.minimumSteps(of: block)
    case .repeatBlock:
      guard case .value(let value)? = arguments.first, let word = value.bareWord,
        case .number(.integer(let count)) = NumberText.parse(word), count > 0
      else { return 0 }
      var body = 0
      for statement in block ?? [] {
        let (sum, overflow) = body.addingReportingOverflow(statement.minimumSteps)
        body = overflow ? .max : sum
      }
      let (product, overflow) = count.multipliedReportingOverflow(by: body)
      return overflow ? .max : product
    }
  }
}
