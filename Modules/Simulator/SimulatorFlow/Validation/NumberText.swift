/// Parsing and printing of numbers as flows write them: `72`, `-3`, `36.6`, `100_000`.
enum NumberText {
  enum Parsed: Equatable {
    case number(Number)
    case tooLarge
    case invalid
  }

  /// Parses `-?digits(.digits)?` where digits may be grouped with `_` (`100_000`).
  ///
  /// - Complexity: O(n), n = characters.
  static func parse(_ text: String) -> Parsed {
    var scalars = Substring(text).unicodeScalars[...]
    var negative = false
    if scalars.first == "-" {
      negative = true
      scalars = scalars.dropFirst()
    }
    guard let first = scalars.first, Lexer.isDigit(first) else { return .invalid }
    var integer = ""
    var fraction = ""
    var inFraction = false
    for scalar in scalars {
      if Lexer.isDigit(scalar) {
        if inFraction {
          fraction.unicodeScalars.append(scalar)
        } else {
          integer.unicodeScalars.append(scalar)
        }
      } else if scalar == "_" {
        continue
      } else if scalar == ".", !inFraction {
        inFraction = true
      } else {
        return .invalid
      }
    }
    if inFraction {
      guard !fraction.isEmpty, let value = Double((negative ? "-" : "") + integer + "." + fraction)
      else { return .invalid }
      return value.isFinite ? .number(.decimal(value)) : .tooLarge
    }
    guard let value = Int((negative ? "-" : "") + integer) else { return .tooLarge }
    return .number(.integer(value))
  }

  /// Whether `text` starts like a number (a digit, or `-`, `+` or `.` before a digit), so a
  /// failure to parse it is a bad number rather than a word.
  static func looksNumeric(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars.prefix(2))
    guard let first = scalars.first else { return false }
    if Lexer.isDigit(first) { return true }
    return (first == "-" || first == "+" || first == ".") && scalars.count > 1
      && Lexer.isDigit(scalars[1])
  }

  /// The shortest text for `value`: whole numbers without `.0` (`3`), others as Swift prints
  /// them (`36.6`).
  static func format(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
      return String(Int64(value))
    }
    return String(value)
  }

  /// `1,000,000`: grouped thousands for messages.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (offset, character) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
      result.append(character)
    }
    return value < 0 ? "-" + result : result
  }
}

/// Parsing and printing of durations: `250ms`, `5s`, `2m`, `1h`, `1.5s`, `1h30m`.
package enum DurationText {
  enum Parsed: Equatable {
    case duration(Duration)
    case tooLarge
    case invalid
  }

  /// Nanoseconds per unit, longest spelling first so `ms` wins over `m`.
  static let units: [(String, Int64)] = [
    ("ns", 1), ("us", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
    ("m", 60_000_000_000), ("h", 3_600_000_000_000), ("d", 86_400_000_000_000),
  ]

  /// Parses one or more `number unit` pairs; the total must fit in `Int64` nanoseconds.
  ///
  /// - Complexity: O(n), n = characters.
  static func parse(_ text: String) -> Parsed {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    var total: Int64 = 0
    guard !scalars.isEmpty else { return .invalid }
    while index < scalars.count {
      var whole = ""
      var fraction = ""
      guard Lexer.isDigit(scalars[index]) else { return .invalid }
      while index < scalars.count, Lexer.isDigit(scalars[index]) || scalars[index] == "_" {
        if scalars[index] != "_" { whole.unicodeScalars.append(scalars[index]) }
        index += 1
      }
      if index < scalars.count, scalars[index] == "." {
        index += 1
        while index < scalars.count, Lexer.isDigit(scalars[index]) {
          fraction.unicodeScalars.append(scalars[index])
          index += 1
        }
        guard !fraction.isEmpty else { return .invalid }
      }
      var unitText = ""
      while index < scalars.count, ("a"..."z").contains(scalars[index]) {
        unitText.unicodeScalars.append(scalars[index])
        index += 1
      }
      guard let nanos = units.first(where: { $0.0 == unitText })?.1 else { return .invalid }
      guard let wholeValue = Int64(whole) else { return .tooLarge }
      let (product, overflow1) = wholeValue.multipliedReportingOverflow(by: nanos)
      let fractionValue = fraction.isEmpty ? 0 : (Double("0." + fraction) ?? 0) * Double(nanos)
      let (sum, overflow2) = total.addingReportingOverflow(product)
      guard !overflow1, !overflow2 else { return .tooLarge }
      let (withFraction, overflow3) = sum.addingReportingOverflow(Int64(fractionValue.rounded()))
      guard !overflow3 else { return .tooLarge }
      total = withFraction
    }
    return .duration(.nanoseconds(total))
  }

  /// The largest unit that divides the duration exactly: `5s`, `1500ms`, `2m`, `1h`.
  package static func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let (secondsNanos, overflow1) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (nanos, overflow2) = secondsNanos.addingReportingOverflow(attoseconds / 1_000_000_000)
    guard !overflow1, !overflow2 else { return "\(duration)" }
    if nanos == 0 { return "0s" }
    for (name, size) in units.reversed() where name != "d" && nanos % size == 0 {
      return "\(nanos / size)\(name)"
    }
    return "\(nanos)ns"
  }
}
