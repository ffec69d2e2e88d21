import Foundation

/// Parsing of dates as flows write them: `2026-11-20`, `2026-11-20T08:30`,
/// `2026-11-20T08:30:15`, `today`, `today-3d`, `today+1w`, `now`, `now-2h`.
///
/// Calendar dates and `today` are midnight in the options' time zone; `now` is the
/// reference instant. Offsets take `d` (days, calendar-aware), `w`, `h`, `m` and `s`.
struct DateText: Sendable {
  let calendar: Calendar
  let now: Date
  let today: Date

  /// The largest offset number accepted (`today-100000d`), so arithmetic cannot overflow.
  static let maxOffset = 1_000_000

  init(options: Flow.ParseOptions) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = options.timeZone
    self.calendar = calendar
    self.now = options.now
    self.today = calendar.startOfDay(for: options.now)
  }

  enum Parsed: Equatable {
    case date(Date)
    /// Not a date; the message says why.
    case invalid(String)
  }

  /// Parses `text`, or explains why it is not a date.
  ///
  /// - Complexity: O(n), n = characters.
  func parse(_ text: String) -> Parsed {
    if text.hasPrefix("today") { return relative(to: today, rest: text.dropFirst(5), text) }
    if text.hasPrefix("now") { return relative(to: now, rest: text.dropFirst(3), text) }
    return absolute(text)
  }

  private func relative(to base: Date, rest: Substring, _ text: String) -> Parsed {
    if rest.isEmpty { return .date(base) }
    guard let sign = rest.first, sign == "-" || sign == "+" else {
      return .invalid("bad date '\(text)'")
    }
    let body = rest.dropFirst()
    guard let unit = body.last, "dwhms".contains(unit), let digit = body.unicodeScalars.first,
      Lexer.isDigit(digit), let amount = Int(body.dropLast())
    else {
      return .invalid("bad date offset in '\(text)'")
    }
    guard amount <= Self.maxOffset else {
      return .invalid("date offset in '\(text)' is too large")
    }
    let value = sign == "-" ? -amount : amount
    let date: Date? =
      switch unit {
      case "d": calendar.date(byAdding: .day, value: value, to: base)
      case "w": calendar.date(byAdding: .day, value: value * 7, to: base)
      case "h": base.addingTimeInterval(Double(value) * 3600)
      case "m": base.addingTimeInterval(Double(value) * 60)
      default: base.addingTimeInterval(Double(value))
      }
    guard let date, (1...9999).contains(calendar.component(.year, from: date)) else {
      return .invalid("date '\(text)' is out of range")
    }
    return .date(date)
  }

  private func absolute(_ text: String) -> Parsed {
    let scalars = Array(text.unicodeScalars)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= scalars.count,
        scalars[range].allSatisfy({ Lexer.isDigit($0) })
      else { return nil }
      var digits = ""
      digits.unicodeScalars.append(contentsOf: scalars[range])
      return Int(digits)
    }
    let bad = Parsed.invalid("bad date '\(text)'")
    guard scalars.count == 10 || scalars.count == 16 || scalars.count == 19,
      let year = number(0..<4), scalars[4] == "-", let month = number(5..<7), scalars[7] == "-",
      let day = number(8..<10)
    else { return bad }
    var hour = 0
    var minute = 0
    var second = 0
    if scalars.count > 10 {
      guard scalars[10] == "T", let h = number(11..<13), scalars[13] == ":",
        let m = number(14..<16)
      else { return bad }
      hour = h
      minute = m
      if scalars.count == 19 {
        guard scalars[16] == ":", let s = number(17..<19) else { return bad }
        second = s
      }
    }
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...Self.days(inMonth: month, year: year)).contains(day), (0...23).contains(hour),
      (0...59).contains(minute), (0...59).contains(second)
    else { return .invalid("'\(text)' is not a valid date") }
    let components = DateComponents(
      calendar: calendar, timeZone: calendar.timeZone, year: year, month: month, day: day,
      hour: hour, minute: minute, second: second)
    guard let date = calendar.date(from: components) else {
      return .invalid("'\(text)' is not a valid date")
    }
    return .date(date)
  }

  static func days(inMonth month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Whether `text` has the shape of a calendar date (`dddd-dd-dd...`), so that failing to
  /// parse it is a bad date rather than a word.
  static func looksLikeDate(_ text: String) -> Bool {
    for prefix in ["today", "now"] where text.hasPrefix(prefix) {
      let rest = text.dropFirst(prefix.count)
      if rest.isEmpty || rest.first == "-" || rest.first == "+" { return true }
    }
    let scalars = Array(text.unicodeScalars.prefix(5))
    return scalars.count == 5 && scalars[0..<4].allSatisfy(Lexer.isDigit) && scalars[4] == "-"
  }
}
