/// An arithmetic expression from `$(...)`: numbers, variables, `+ - * / %` and parentheses.
///
/// Operators of equal precedence are stored as a flat chain, so evaluation depth grows only
/// with parentheses and unary minus, which the parser limits.
indirect enum Expression: Sendable {
  case number(Number)
  case variable(String, Span)
  case negate(Expression)
  case chain(Expression, [Operation])

  /// One `op operand` link of a chain; `span` is the operator's, for division by zero.
  struct Operation: Sendable {
    var op: ArithmeticOperator
    var operand: Expression
    var span: Span
  }
}

/// An arithmetic operator of `$(...)`.
enum ArithmeticOperator: Character, Sendable {
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
  case remainder = "%"
}

/// A number in a flow: whole numbers stay `Int` (overflow is an error, never a trap) and
/// anything with a decimal part is a `Double`.
enum Number: Sendable, Equatable {
  case integer(Int)
  case decimal(Double)

  var double: Double {
    switch self {
    case .integer(let value): Double(value)
    case .decimal(let value): value
    }
  }

  /// The shortest text for the number: `72`, `36.6`, `3` for 3.0.
  var text: String {
    switch self {
    case .integer(let value): String(value)
    case .decimal(let value): NumberText.format(value)
    }
  }
}

/// Parses `$(...)` from the scalars of one line, starting just after `$(`.
///
/// - Complexity: O(k), k = scalars of the expression; recursion depth at most
///   3 × `maxNesting`.
struct ExpressionParser {
  let scalars: [Unicode.Scalar]
  let line: Int
  let source: Source
  let maxNesting: Int
  /// The column span of the opening `$(`.
  let opener: Span
  var index: Int

  /// Parses the expression and its closing `)`; `index` ends just after it.
  mutating func parse() throws(FlowError) -> Expression {
    let expression = try parseSum(depth: 1)
    skipSpaces()
    guard index < scalars.count else { throw unterminated() }
    guard scalars[index] == ")" else {
      throw source.error(
        .badExpression, at: here(), "unexpected '\(scalars[index])' in $(...)",
        hint: "an expression uses numbers, variables, + - * / % and parentheses")
    }
    index += 1
    return expression
  }

  private mutating func parseSum(depth: Int) throws(FlowError) -> Expression {
    let first = try parseProduct(depth: depth)
    var operations: [Expression.Operation] = []
    while true {
      skipSpaces()
      guard index < scalars.count, let op = ArithmeticOperator(rawValue: Character(scalars[index])),
        op == .add || op == .subtract
      else { break }
      let span = here()
      index += 1
      operations.append(.init(op: op, operand: try parseProduct(depth: depth), span: span))
    }
    return operations.isEmpty ? first : .chain(first, operations)
  }

  private mutating func parseProduct(depth: Int) throws(FlowError) -> Expression {
    let first = try parseUnary(depth: depth)
    var operations: [Expression.Operation] = []
    while true {
      skipSpaces()
      guard index < scalars.count, let op = ArithmeticOperator(rawValue: Character(scalars[index])),
        op == .multiply || op == .divide || op == .remainder
      else { break }
      let span = here()
      index += 1
      operations.append(.init(op: op, operand: try parseUnary(depth: depth), span: span))
    }
    return operations.isEmpty ? first : .chain(first, operations)
  }

  private mutating func parseUnary(depth: Int) throws(FlowError) -> Expression {
    skipSpaces()
    guard index < scalars.count, scalars[index] == "-" || scalars[index] == "+" else {
      return try parsePrimary(depth: depth)
    }
    let negative = scalars[index] == "-"
    try checkDepth(depth + 1)
    index += 1
    let operand = try parseUnary(depth: depth + 1)
    return negative ? .negate(operand) : operand
  }

  private mutating func parsePrimary(depth: Int) throws(FlowError) -> Expression {
    skipSpaces()
    guard index < scalars.count else { throw unterminated() }
    let scalar = scalars[index]
    if scalar == "(" {
      try checkDepth(depth + 1)
      let open = here()
      index += 1
      let inner = try parseSum(depth: depth + 1)
      skipSpaces()
      guard index < scalars.count, scalars[index] == ")" else {
        throw source.error(
          .badExpression, at: index < scalars.count ? here() : open,
          "missing ')' to close '(' in $(...)")
      }
      index += 1
      return inner
    }
    if Lexer.isDigit(scalar) { return .number(try parseNumber()) }
    if scalar == "$" || Lexer.isNameStart(scalar) {
      let start = index
      if scalar == "$" { index += 1 }
      let nameStart = index
      while index < scalars.count, Lexer.isNameContinue(scalars[index]) { index += 1 }
      let span = Span(line: line, column: start + 1, length: max(1, index - start))
      guard index > nameStart, Lexer.isNameStart(scalars[nameStart]) else {
        throw source.error(.badExpression, at: span, "expected a variable name after '$' in $(...)")
      }
      var name = ""
      name.unicodeScalars.append(contentsOf: scalars[nameStart..<index])
      return .variable(name, span)
    }
    if scalar == ")" {
      throw source.error(
        .badExpression, at: here(), "expected a number, a variable or '(' before ')' in $(...)")
    }
    throw source.error(
      .badExpression, at: here(),
      "expected a number, a variable or '(' in $(...), got '\(scalar)'",
      hint: "an expression uses numbers, variables, + - * / % and parentheses")
  }

  private mutating func parseNumber() throws(FlowError) -> Number {
    let start = index
    while index < scalars.count,
      Lexer.isDigit(scalars[index]) || scalars[index] == "_" || scalars[index] == "."
        || Lexer.isNameContinue(scalars[index])
    {
      index += 1
    }
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars[start..<index])
    let span = Span(line: line, column: start + 1, length: index - start)
    switch NumberText.parse(text) {
    case .number(let number): return number
    case .tooLarge:
      throw source.error(
        .badNumber, at: span, "number '\(text)' is too large",
        hint: "whole numbers go up to \(Int.max)")
    case .invalid:
      throw source.error(
        .badNumber, at: span, "bad number '\(text)'",
        hint: "write digits with an optional decimal part, like 72 or 36.6")
    }
  }

  private func checkDepth(_ depth: Int) throws(FlowError) {
    guard depth > maxNesting else { return }
    throw source.error(
      .nestingTooDeep, at: here(), "expression nested deeper than \(maxNesting) levels",
      hint: "split it with 'let' into smaller expressions")
  }

  private mutating func skipSpaces() {
    while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
  }

  private func here() -> Span { Span(line: line, column: index + 1, length: 1) }

  private func unterminated() -> FlowError {
    source.error(
      .badExpression, at: opener, "unterminated '$(': missing ')'",
      hint: "close the expression on the same line")
  }
}
