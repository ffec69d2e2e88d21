/// Splits a flow file into tokens, line by line.
///
/// `#` starts a comment outside strings; `;`, `{`, `}`, `=`, comparison operators, strings,
/// `$name` and `$(...)` are tokens of their own; any other run of non-space characters is an
/// atom (`form.set`, `ada@example.com`, `250ms`, `today-3d`, `/api/*`). Each line ends with a
/// `newline` token and the file with `end`.
///
/// - Complexity: O(n), n = scalars in the file.
package struct Lexer {
  let source: Source
  let maxNesting: Int
  var tokens: [Token] = []

  static func tokenize(_ source: Source, options: Flow.ParseOptions) throws(FlowError) -> [Token] {
    var lexer = Lexer(source: source, maxNesting: options.maxNesting)
    for (index, line) in source.scalars.enumerated() {
      try lexer.lexLine(line, number: index + 1)
    }
    let lastLine = max(1, source.scalars.count)
    let lastColumn = (source.scalars.last?.count ?? 0) + 1
    lexer.tokens.append(
      Token(
        kind: .end, span: Span(line: lastLine, column: lastColumn, length: 1), spaceBefore: true))
    return lexer.tokens
  }

  private mutating func lexLine(_ scalars: [Unicode.Scalar], number: Int) throws(FlowError) {
    var index = 0
    var spaceBefore = true
    func span(_ start: Int, _ end: Int) -> Span {
      Span(line: number, column: start + 1, length: max(1, end - start))
    }
    while index < scalars.count {
      let scalar = scalars[index]
      if Self.isSpace(scalar) {
        index += 1
        spaceBefore = true
        continue
      }
      if scalar == "#" { break }
      let start = index
      let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
      let kind: Token.Kind
      switch scalar {
      case ";":
        kind = .semicolon
        index += 1
      case "{":
        kind = .openBrace
        index += 1
      case "}":
        kind = .closeBrace
        index += 1
      case "=":
        kind = next == "=" ? .comparison(.equal) : .equals
        index += next == "=" ? 2 : 1
      case "!" where next == "=":
        kind = .comparison(.notEqual)
        index += 2
      case "<", ">":
        let orEqual = next == "="
        kind = .comparison(
          scalar == "<" ? (orEqual ? .lessOrEqual : .less) : (orEqual ? .greaterOrEqual : .greater))
        index += orEqual ? 2 : 1
      case "\"":
        kind = .string(try lexString(scalars, line: number, index: &index))
      case "$":
        switch try lexDollar(scalars, line: number, index: &index) {
        case .variable(let name, _): kind = .variable(name)
        case .expression(let expression, _): kind = .expression(expression)
        case .text(let text, let quoted):
          kind = quoted ? .string([.text(text, quoted: true)]) : .atom(text)
        }
      default:
        if Self.isControl(scalar) {
          throw source.error(
            .syntax, at: span(start, start + 1),
            "unexpected control character U+\(Self.hex(scalar.value))",
            hint: "remove it; flows are plain text")
        }
        while index < scalars.count,
          Self.isAtom(scalars[index], next: index + 1 < scalars.count ? scalars[index + 1] : nil)
        {
          index += 1
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<index])
        kind = .atom(text)
      }
      tokens.append(Token(kind: kind, span: span(start, index), spaceBefore: spaceBefore))
      spaceBefore = false
    }
    tokens.append(
      Token(
        kind: .newline, span: Span(line: number, column: scalars.count + 1, length: 1),
        spaceBefore: true))
  }

  /// Lexes `"..."` from the opening quote at `index`; `index` ends after the closing quote.
  private func lexString(
    _ scalars: [Unicode.Scalar], line: Int, index: inout Int
  ) throws(FlowError) -> [ValuePart] {
    let open = index
    index += 1
    var parts: [ValuePart] = []
    var text = ""
    var sawText = false
    while true {
      guard index < scalars.count else {
        throw source.error(
          .unterminatedString, at: Span(line: line, column: open + 1, length: scalars.count - open),
          "unterminated string", hint: "close it with '\"' on the same line")
      }
      let scalar = scalars[index]
      if scalar == "\"" {
        index += 1
        break
      }
      if scalar == "\\" {
        guard index + 1 < scalars.count else {
          throw source.error(
            .unterminatedString,
            at: Span(line: line, column: open + 1, length: scalars.count - open),
            "unterminated string", hint: "close it with '\"' on the same line")
        }
        let escaped = scalars[index + 1]
        switch escaped {
        case "\"", "\\", "$": text.unicodeScalars.append(escaped)
        case "n": text.unicodeScalars.append("\n")
        case "t": text.unicodeScalars.append("\t")
        default:
          throw source.error(
            .invalidEscape, at: Span(line: line, column: index + 1, length: 2),
            "unknown escape '\\\(escaped)' in a string",
            hint: "the escapes are \\\" \\\\ \\n \\t and \\$")
        }
        sawText = true
        index += 2
        continue
      }
      if scalar == "$" {
        if sawText || !text.isEmpty { parts.append(.text(text, quoted: true)) }
        text = ""
        sawText = false
        parts.append(try lexDollar(scalars, line: line, index: &index, inString: true))
        continue
      }
      text.unicodeScalars.append(scalar)
      sawText = true
      index += 1
    }
    let hasText = parts.contains { part in
      if case .text = part { true } else { false }
    }
    // Always keep one quoted text part, so that `"$name"` is a string, not the bare value.
    if sawText || !hasText { parts.append(.text(text, quoted: true)) }
    return parts
  }

  /// Lexes `$name` or `$(...)` from the `$` at `index`.
  private func lexDollar(
    _ scalars: [Unicode.Scalar], line: Int, index: inout Int, inString: Bool = false
  ) throws(FlowError) -> ValuePart {
    let start = index
    index += 1
    if index < scalars.count, scalars[index] == "(" {
      var parser = ExpressionParser(
        scalars: scalars, line: line, source: source, maxNesting: maxNesting,
        opener: Span(line: line, column: start + 1, length: 2), index: index + 1)
      let expression = try parser.parse()
      index = parser.index
      return .expression(expression, Span(line: line, column: start + 1, length: index - start))
    }
    guard index < scalars.count, Self.isNameStart(scalars[index]) else {
      throw source.error(
        .syntax, at: Span(line: line, column: start + 1, length: 1),
        "expected a variable name or '(' after '$'",
        hint: inString
          ? "write \\$ for a dollar sign in a string"
          : "quote text that contains a dollar sign and write it as \\$")
    }
    while index < scalars.count, Self.isNameContinue(scalars[index]) { index += 1 }
    var name = ""
    name.unicodeScalars.append(contentsOf: scalars[(start + 1)..<index])
    return .variable(name, Span(line: line, column: start + 1, length: index - start))
  }

  // MARK: Character classes

  static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t" || (scalar.value > 0x7F && scalar.properties.isWhitespace)
  }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
  }

  static func isAtom(_ scalar: Unicode.Scalar, next: Unicode.Scalar?) -> Bool {
    switch scalar {
    case "#", ";", "{", "}", "\"", "=", "<", ">", "$": false
    case "!": next != "="
    default: !isSpace(scalar) && !isControl(scalar)
    }
  }

  static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

  package static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
  }

  package static func isNameContinue(_ scalar: Unicode.Scalar) -> Bool {
    isNameStart(scalar) || isDigit(scalar)
  }

  /// Whether `text` is a variable name: a letter or `_`, then letters, digits or `_`.
  static func isName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, isNameStart(first) else { return false }
    return text.unicodeScalars.allSatisfy(isNameContinue)
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
