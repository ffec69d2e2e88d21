/// A flow file split into lines, with the helpers that turn a span into a `FlowError`.
///
/// Lines end at `\n`, `\r\n` or `\r`; the terminators are not part of the line.
///
/// - Complexity: building is O(n), n = scalars in the text.
struct Source: Sendable {
  /// The file name used in locations.
  let file: String
  /// Each line as text, for diagnostics and `Step.sourceLine` (secrets masked once the
  /// statements are known: `SecretMask`).
  var lines: [String]
  /// Each line as Unicode scalars, for the lexer; columns index into these.
  var scalars: [[Unicode.Scalar]]

  init(file: String, text: String) {
    self.file = file
    var lines: [[Unicode.Scalar]] = []
    var current: [Unicode.Scalar] = []
    var afterCarriageReturn = false
    var scalars = text.unicodeScalars[...]
    if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }  // a byte-order mark
    for scalar in scalars {
      if scalar == "\n" {
        if !afterCarriageReturn { lines.append(current) }
        current = []
        afterCarriageReturn = false
      } else if scalar == "\r" {
        lines.append(current)
        current = []
        afterCarriageReturn = true
      } else {
        current.append(scalar)
        afterCarriageReturn = false
      }
    }
    lines.append(current)
    self.scalars = lines
    self.lines = lines.map { line in
      var text = ""
      text.unicodeScalars.append(contentsOf: line)
      return text
    }
  }

  /// The text of 1-based line `number`, or `""` when there is no such line.
  func line(_ number: Int) -> String {
    number >= 1 && number <= lines.count ? lines[number - 1] : ""
  }

  /// The location of `span`'s start.
  func location(_ span: Span) -> Flow.SourceLocation {
    Flow.SourceLocation(file: file, line: span.line, column: span.column)
  }

  /// An error of `kind` underlining `span`.
  func error(
    _ kind: FlowError.Kind, at span: Span, _ message: String, hint: String? = nil
  ) -> FlowError {
    FlowError(
      kind: kind, location: location(span), length: span.length, message: message, hint: hint,
      sourceLine: line(span.line))
  }
}

/// A run of columns on one line: 1-based line and column, length in scalars.
struct Span: Sendable, Hashable {
  var line: Int
  var column: Int
  var length: Int

  /// The span from the start of `self` to the end of `other` (on the same line).
  func through(_ other: Span) -> Span {
    guard other.line == line else { return self }
    return Span(line: line, column: column, length: max(1, other.column + other.length - column))
  }
}
