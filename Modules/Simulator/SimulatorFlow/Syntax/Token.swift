/// One lexical token of a flow file.
struct Token: Sendable {
  enum Kind: Sendable {
    /// A bare word: a command word, a key, a number, a duration, a date, an enum word, ...
    case atom(String)
    /// A quoted string, split where it interpolates `$name` or `$(...)`.
    case string([ValuePart])
    /// `$name`.
    case variable(String)
    /// `$(...)`.
    case expression(Expression)
    /// `=` between a key and its value.
    case equals
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    case comparison(StepKind.ComparisonOperator)
    case openBrace
    case closeBrace
    case semicolon
    case newline
    case end
  }

  var kind: Kind
  var span: Span
  /// Whether whitespace (or the start of the line) comes right before the token; tokens
  /// without it are glued into one value (`user$i@example.com`).
  var spaceBefore: Bool

  /// The parts this token contributes to a value, or `nil` when it cannot be part of one.
  var valueParts: [ValuePart]? {
    switch kind {
    case .atom(let text): [.text(text, quoted: false)]
    case .string(let parts): parts
    case .variable(let name): [.variable(name, span)]
    case .expression(let expression): [.expression(expression, span)]
    case .equals, .comparison, .openBrace, .closeBrace, .semicolon, .newline, .end: nil
    }
  }

  /// Whether the token ends a statement's arguments.
  var endsArguments: Bool {
    switch kind {
    case .openBrace, .closeBrace, .semicolon, .newline, .end: true
    case .atom, .string, .variable, .expression, .equals, .comparison: false
    }
  }

  /// How the token reads in a message.
  var display: String {
    switch kind {
    case .atom(let text): "'\(text)'"
    case .string: "a string"
    case .variable(let name): "'$\(name)'"
    case .expression: "'$(...)'"
    case .equals: "'='"
    case .comparison(let op): "'\(op.rawValue)'"
    case .openBrace: "'{'"
    case .closeBrace: "'}'"
    case .semicolon: "';'"
    case .newline: "the end of the line"
    case .end: "the end of the file"
    }
  }
}

/// A piece of a value as written: literal text, a variable or an arithmetic expression.
/// Adjacent pieces with no space between them form one value.
enum ValuePart: Sendable {
  case text(String, quoted: Bool)
  case variable(String, Span)
  case expression(Expression, Span)
}

/// A value as written in the source: its parts and where it is.
struct ValueSyntax: Sendable {
  var parts: [ValuePart]
  var span: Span

  /// The text of a value that is one bare word (`week`, `form.set`, `72`), else `nil`.
  var bareWord: String? {
    guard parts.count == 1, case .text(let text, quoted: false) = parts[0] else { return nil }
    return text
  }

  /// Whether the value reads a variable (directly or in `$(...)`), so that it may differ
  /// from one loop iteration to the next.
  var usesVariables: Bool {
    parts.contains { part in
      switch part {
      case .text: false
      case .variable, .expression: true
      }
    }
  }
}
