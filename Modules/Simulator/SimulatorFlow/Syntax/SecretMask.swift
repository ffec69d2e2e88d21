/// Where a flow's secrets are written, and the source with them masked.
///
/// The parser notes, for every statement it reads (also one it then rejects), the spans of
/// the values of arguments declared secret (`CommandArgument.secret()`) and the variables
/// passed to them; the values of `let` bindings of those variables are masked too. Each
/// value is replaced by `*`, one per character: the columns of everything after it on the
/// line, and so every location, caret and statement window, stay true. Every later reader
/// of the source — the steps' `sourceLine` (report rows, the trace, failure diagnostics) and
/// every `FlowError` — reads the masked lines; the values themselves were read from the
/// tokens before.
///
/// > Note: The mask keeps a value's length. A lexical error (an unterminated string), and a
/// > syntax error among a statement's arguments (`email= password=x`), stop before the
/// > arguments are known, and are reported with the line as written.
///
/// - Complexity: O(s + m), s = statements, m = masked characters.
struct SecretMask: Sendable {
  /// The spans of secret values noted so far.
  private(set) var spans: [Span] = []
  /// Variables passed to secret arguments.
  private(set) var variables: Set<String> = []

  /// Notes the values of `keywords` whose name is in `names`.
  mutating func note(_ keywords: [Statement.Keyword], named names: Set<String>) {
    guard !names.isEmpty else { return }
    for keyword in keywords where names.contains(keyword.name) { note(keyword.value) }
  }

  /// Notes the positional values at `places` (`nil`: not a value).
  mutating func note(positional values: [ValueSyntax?], at places: Set<Int>) {
    for place in places where place < values.count {
      if let value = values[place] { note(value) }
    }
  }

  private mutating func note(_ value: ValueSyntax) {
    spans.append(value.span)
    for part in value.parts {
      if case .variable(let name, _) = part { variables.insert(name) }
    }
  }

  /// Every span to mask: the noted values, and the values `let` binds to the noted
  /// variables in `statements` (nested blocks included).
  func allSpans(in statements: [Statement]) -> [Span] {
    var all = spans
    if !variables.isEmpty { collectLets(statements, into: &all) }
    return all
  }

  private func collectLets(_ statements: [Statement], into spans: inout [Span]) {
    for statement in statements {
      if case .letBinding = statement.spec.role {
        for keyword in statement.keywords where variables.contains(keyword.name) {
          spans.append(keyword.value.span)
        }
      }
      if let block = statement.block { collectLets(block, into: &spans) }
    }
  }
}

extension Source {
  /// This source with the characters under `spans` replaced by `*`.
  ///
  /// - Complexity: O(m + l), m = masked characters, l = characters of the lines touched.
  func masking(_ spans: [Span]) -> Source {
    guard !spans.isEmpty else { return self }
    var masked = self
    for span in spans where span.line >= 1 && span.line <= scalars.count {
      let start = max(0, span.column - 1)
      let end = min(masked.scalars[span.line - 1].count, start + span.length)
      guard start < end else { continue }
      for column in start..<end { masked.scalars[span.line - 1][column] = "*" }
      var text = ""
      text.unicodeScalars.append(contentsOf: masked.scalars[span.line - 1])
      masked.lines[span.line - 1] = text
    }
    return masked
  }

  /// `error` (and the errors following it) showing this source's line, for an error made
  /// from the unmasked source.
  func masking(_ error: FlowError) -> FlowError {
    var error = error
    if !error.sourceLine.isEmpty { error.sourceLine = line(error.location.line) }
    error.followingErrors = error.followingErrors?.map(masking)
    return error
  }
}
