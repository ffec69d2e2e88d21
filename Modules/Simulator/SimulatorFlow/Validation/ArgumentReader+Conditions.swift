import Foundation

/// Reading `PATH OP VALUE` for `expect` and `wait`.
extension ArgumentReader {
  /// Reads the next three positional arguments as a condition.
  mutating func condition() throws(FlowError) -> StepKind.Condition {
    let pathSyntax = try requireValue("PATH")
    let observed = try path(pathSyntax)
    let opArgument = try require("OP")
    let op = try comparison(opArgument)
    let valueSyntax = try requireValue("VALUE")
    let value = try expected(valueSyntax)
    if op.isOrdering {
      switch value {
      case .number, .duration, .date: break
      case .bool, .string, .word, .none:
        throw source.error(
          .wrongValueKind, at: valueSyntax.span,
          "'\(op.rawValue)' compares numbers, durations or dates, got \(value)",
          hint: "use '==', '!=' or 'contains' for other values")
      }
    }
    try checkWord(value, for: observed, op: op, at: valueSyntax.span)
    return StepKind.Condition(path: observed, op: op, value: value)
  }

  /// Refuses a word that an enumeration-valued path never shows (`auth.state == authenticatd`),
  /// naming the nearest of the words it does.
  private func checkWord(
    _ value: StepKind.Value, for path: String, op: StepKind.ComparisonOperator, at span: Span
  ) throws(FlowError) {
    guard op == .equal || op == .notEqual, let words = environment.options.pathValues[path]
    else { return }
    let word: String
    switch value {
    case .word(let text), .string(let text): word = text
    default: return
    }
    guard !words.contains(word) else { return }
    let hint: String =
      if let match = Suggestion.nearest(to: word, among: words) {
        "did you mean '\(match.word)'? (\(path) is one of: \(words.joined(separator: ", ")))"
      } else {
        "\(path) is one of: \(words.joined(separator: ", "))"
      }
    throw source.error(
      .unknownEnumWord, at: span, "\(path) is never '\(word)'", hint: hint)
  }

  /// A comparison operator: `==`, `!=`, `<`, `<=`, `>`, `>=` or the word `contains`.
  func comparison(_ argument: Statement.Argument) throws(FlowError) -> StepKind.ComparisonOperator {
    switch argument {
    case .comparison(let op, _):
      return op
    case .value(let value):
      if value.bareWord == "contains" { return .contains }
      let got = text(of: value.span)
      throw source.error(
        .wrongValueKind, at: value.span,
        "expected a comparison (==, !=, <, <=, >, >=, contains), got '\(got)'",
        hint: got == "=" ? "compare with '=='" : "usage: \(usage)")
    }
  }

  /// An expected value, typed by how it is written (see `StepKind.Value`).
  func expected(_ value: ValueSyntax) throws(FlowError) -> StepKind.Value {
    let resolved = try resolve(value)
    let word: String
    switch resolved {
    case .number(let number): return .number(number.double)
    case .text(let text, quoted: true): return .string(text)
    case .text(let text, quoted: false): word = text
    }
    switch word {
    case "true", "on": return .bool(true)
    case "false", "off": return .bool(false)
    case "nil": return .none
    default: break
    }
    switch NumberText.parse(word) {
    case .number(let number): return .number(number.double)
    case .tooLarge:
      throw source.error(
        .badNumber, at: value.span, "number '\(word)' is too large",
        hint: "whole numbers go up to \(Int.max)")
    case .invalid: break
    }
    switch DurationText.parse(word) {
    case .duration(let duration): return .duration(duration)
    case .tooLarge:
      throw source.error(
        .valueOutOfRange, at: value.span, "duration '\(word)' is too long",
        hint: "durations go up to about 292 years")
    case .invalid: break
    }
    if DateText.looksLikeDate(word) {
      switch environment.dates.parse(word) {
      case .date(let date): return .date(date)
      case .invalid(let message):
        throw source.error(
          .badDate, at: value.span, message,
          hint: "write YYYY-MM-DD, YYYY-MM-DDTHH:MM, today, today-3d, now or now-2h")
      }
    }
    return .word(word)
  }
}
