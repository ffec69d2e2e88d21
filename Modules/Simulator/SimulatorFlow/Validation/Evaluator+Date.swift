import Foundation

extension Evaluator {
  /// `date INSTANT`: the wall clock at launch. Top level, at most once, an absolute instant
  /// (`2026-03-01T09:00:00Z`, `2026-03-01T09:00`, `2026-03-01`; a trailing `Z` is UTC, else
  /// the options' time zone): `today` and `now` would resolve against the very clock the
  /// statement sets.
  ///
  /// - Complexity: O(n), n = the statement's characters.
  mutating func date(_ statement: Statement, scope: Scope, depth: Int) throws(FlowError) {
    let hint = "write an instant such as 2026-03-01T09:00:00Z, 2026-03-01T09:00 or 2026-03-01"
    if depth > 0 {
      throw source.error(
        .misplacedStatement, at: statement.commandSpan,
        "'date' must be at the top level, not inside a block",
        hint: "move it near the top of the file")
    }
    if let wallClock {
      throw source.error(
        .duplicateDate, at: statement.commandSpan,
        "duplicate 'date': the wall clock is already set on line \(wallClock.line)",
        hint: "keep one 'date INSTANT' line")
    }
    var reader = makeReader(statement, scope)
    let value = try reader.requireValue("INSTANT")
    var text = try reader.resolve(value).plainText
    if text.hasPrefix("today") || text.hasPrefix("now") {
      throw source.error(
        .badDate, at: value.span,
        "'\(text)' is relative to the wall clock that 'date' sets", hint: hint)
    }
    var options = environment.options
    if text.hasSuffix("Z"), text.contains("T") {
      text.removeLast()
      options.timeZone = TimeZone(secondsFromGMT: 0) ?? options.timeZone
    }
    switch DateText(options: options).parse(text) {
    case .date(let instant):
      try reader.finish()
      wallClock = (instant, statement.commandSpan.line)
    case .invalid(let message):
      throw source.error(.badDate, at: value.span, "\(message) for date", hint: hint)
    }
  }
}
