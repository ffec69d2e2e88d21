import Foundation

/// Reading a value as a particular kind.
extension ArgumentReader {
  /// The value as text (numbers in their shortest form).
  func text(_ value: ValueSyntax) throws(FlowError) -> String {
    try resolve(value).plainText
  }

  /// The value as a non-empty name (a tab, a sheet, a view group, a context name).
  func name(_ value: ValueSyntax, _ label: String) throws(FlowError) -> String {
    let string = try text(value)
    guard !string.isEmpty else {
      throw source.error(
        .wrongValueKind, at: value.span, "expected \(label), got an empty string",
        hint: "usage: \(usage)")
    }
    return string
  }

  /// The value as a number, or an error: `badNumber` for text that starts like a number,
  /// `wrongValueKind` for anything else.
  func number(_ value: ValueSyntax, _ expected: String) throws(FlowError) -> Number {
    let resolved = try resolve(value)
    switch resolved {
    case .number(let number):
      return number
    case .text(let text, quoted: false):
      switch NumberText.parse(text) {
      case .number(let number): return number
      case .tooLarge:
        throw source.error(
          .badNumber, at: value.span, "number '\(text)' is too large",
          hint: "whole numbers go up to \(Int.max)")
      case .invalid where NumberText.looksNumeric(text):
        throw source.error(
          .badNumber, at: value.span, "bad number '\(text)'",
          hint: "write digits with an optional decimal part, like 72 or 36.6")
      case .invalid:
        break
      }
    case .text(_, quoted: true):
      break
    }
    throw source.error(
      .wrongValueKind, at: value.span, "expected \(expected), got \(resolved.display)",
      hint: "usage: \(usage)")
  }

  /// The value as a whole number in `range`.
  func integer(
    _ value: ValueSyntax, _ label: String, in range: ClosedRange<Int>
  )
    throws(FlowError) -> Int
  {
    let whole: Int
    switch try number(value, "a whole number for \(label)") {
    case .integer(let integer):
      whole = integer
    case .decimal(let decimal):
      guard decimal == decimal.rounded(), let exact = Int(exactly: decimal) else {
        throw source.error(
          .wrongValueKind, at: value.span,
          "expected a whole number for \(label), got '\(NumberText.format(decimal))'",
          hint: "usage: \(usage)")
      }
      whole = exact
    }
    guard range.contains(whole) else {
      let bounds =
        range.upperBound == .max
        ? "at least \(NumberText.grouped(range.lowerBound))"
        : "between \(NumberText.grouped(range.lowerBound)) and "
          + NumberText.grouped(range.upperBound)
      throw source.error(
        .valueOutOfRange, at: value.span, "\(label) must be \(bounds), got \(whole)",
        hint: "usage: \(usage)")
    }
    return whole
  }

  /// The value as a decimal number, optionally within `range`.
  func decimal(
    _ value: ValueSyntax, _ label: String, in range: ClosedRange<Double>? = nil
  )
    throws(FlowError) -> Double
  {
    let number = try number(value, "a number for \(label)").double
    if let range, !range.contains(number) {
      throw source.error(
        .valueOutOfRange, at: value.span,
        "\(label) must be between \(NumberText.format(range.lowerBound)) and "
          + "\(NumberText.format(range.upperBound)), got \(NumberText.format(number))",
        hint: "usage: \(usage)")
    }
    return number
  }

  /// The value as a duration: `250ms`, `5s`, `2m`, `1h`, `1.5s`, `1m30s`.
  func duration(_ value: ValueSyntax, _ label: String) throws(FlowError) -> Duration {
    let resolved = try resolve(value)
    if case .text(let text, quoted: false) = resolved {
      switch DurationText.parse(text) {
      case .duration(let duration): return duration
      case .tooLarge:
        throw source.error(
          .valueOutOfRange, at: value.span, "duration '\(text)' for \(label) is too long",
          hint: "durations go up to about 292 years")
      case .invalid: break
      }
    }
    let hint =
      if case .number = resolved {
        "add a unit: 250ms, 5s, 2m or 1h"
      } else if case .text(let text, quoted: false) = resolved,
        NumberText.parse(text) != .invalid
      {
        "add a unit: 250ms, 5s, 2m or 1h"
      } else {
        "a duration is a number and a unit (ns, us, ms, s, m, h, d): 250ms, 1.5s, 2m, 1h30m"
      }
    throw source.error(
      .wrongValueKind, at: value.span,
      "expected a duration like '5s' for \(label), got \(resolved.display)", hint: hint)
  }

  /// The value as a date, resolved against the options' `now` and time zone.
  func date(_ value: ValueSyntax, _ label: String) throws(FlowError) -> Date {
    let resolved = try resolve(value)
    let text = resolved.plainText
    switch environment.dates.parse(text) {
    case .date(let date): return date
    case .invalid(let message):
      throw source.error(
        .badDate, at: value.span, "\(message) for \(label)",
        hint: "write YYYY-MM-DD, YYYY-MM-DDTHH:MM, today, today-3d, now or now-2h")
    }
  }

  /// The value as one of the words of `Word`.
  func word<Word: FlowWord>(_ value: ValueSyntax, _ type: Word.Type) throws(FlowError) -> Word {
    let string = try text(value)
    if let word = Word(rawValue: string) { return word }
    let words = Word.allCases.map(\.rawValue)
    let hint =
      if let match = Suggestion.nearest(to: string, among: words) {
        "did you mean '\(match.word)'?"
      } else {
        "expected one of: \(words.joined(separator: ", "))"
      }
    throw source.error(
      .unknownEnumWord, at: value.span, "unknown \(Word.wordKind) '\(string)'", hint: hint)
  }

  /// The value as on/off (`on`, `off`, `true`, `false`).
  func bool(_ value: ValueSyntax) throws(FlowError) -> Bool {
    try word(value, SwitchWord.self).isOn
  }

  /// The value as an observable path, checked against the known paths.
  func path(_ value: ValueSyntax) throws(FlowError) -> String {
    let resolved = try resolve(value)
    guard case .text(let path, quoted: false) = resolved, Environment.isPath(path) else {
      throw source.error(
        .badPath, at: value.span, "bad path \(resolved.display)",
        hint: "a path is names joined by '.', like dashboard.summary.totalSteps")
    }
    guard !environment.accepts(path) else { return path }
    let head = path.split(separator: ".").first.map(String.init) ?? path
    let siblings = environment.sortedPaths.filter { $0.hasPrefix(head + ".") }
    let hint: String =
      if let match = Suggestion.nearest(to: path, among: environment.sortedPaths) {
        "did you mean '\(match.word)'?"
      } else if !siblings.isEmpty {
        "known paths under '\(head)': \(siblings.prefix(8).joined(separator: ", "))"
          + (siblings.count > 8 ? ", ..." : "")
      } else {
        "no known path is close; check it against the runner's list of paths"
      }
    throw source.error(.unknownPath, at: value.span, "unknown path '\(path)'", hint: hint)
  }

  /// The value as a context path: names joined by `/` (`global/Class/assignments`).
  func contextPath(_ value: ValueSyntax) throws(FlowError) -> String {
    let string = try text(value)
    let segments = string.split(separator: "/", omittingEmptySubsequences: false)
    guard !string.isEmpty,
      segments.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) })
    else {
      throw source.error(
        .badPath, at: value.span, "bad context path '\(string)'",
        hint: "a context path is names joined by '/', like global/Class/assignments")
    }
    return string
  }

  /// Checks that `argument` is the bare word `expected`.
  func literal(_ expected: String, _ argument: Statement.Argument) throws(FlowError) {
    let syntax = try value(argument, "'\(expected)'")
    guard syntax.bareWord != expected else { return }
    let got = text(of: syntax.span)
    let close = Suggestion.nearest(to: got, among: [expected]) != nil
    throw source.error(
      .unknownEnumWord, at: syntax.span, "expected '\(expected)', got '\(got)'",
      hint: close ? "did you mean '\(expected)'?" : "usage: \(usage)")
  }

  /// A variable name, as in `repeat N as k`.
  func variableName(_ argument: Statement.Argument) throws(FlowError) -> String {
    let syntax = try value(argument, "NAME")
    guard let name = syntax.bareWord, Lexer.isName(name) else {
      throw source.error(
        .syntax, at: syntax.span, "bad variable name '\(text(of: syntax.span))'",
        hint: "a variable name is a letter or '_' followed by letters, digits or '_'")
    }
    return name
  }
}
