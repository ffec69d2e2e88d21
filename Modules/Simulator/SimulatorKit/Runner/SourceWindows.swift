import Foundation
import SimulatorFlow

/// The windows of source lines that a run reports its steps with, made once per statement.
///
/// A step's report row and failure message show its line; a line longer than
/// `LineWindow.maxColumns` is cut to a window around the statement. The scalars of a long
/// line are split once per line and each statement's window is made once, so a million
/// steps of one loop on a 1 MB line share one small window and cost O(1) each.
///
/// - Complexity: O(c) the first time a long line is met, c = its scalars; O(1) amortized
///   per step afterwards.
/// - Note: Isolation: a value, used by one runner.
struct SourceWindows {
  /// The scalars of long lines, by line number.
  private var lines: [Int: [Unicode.Scalar]] = [:]
  /// Each statement's window, by its location.
  private var windows: [Flow.SourceLocation: LineWindow] = [:]
  /// Each statement's own text on a line of several (`a ; b`), by its location.
  private var statements: [Flow.SourceLocation: String] = [:]

  /// The window of `step`'s line around its statement.
  mutating func window(for step: Step) -> LineWindow {
    if let known = windows[step.location] { return known }
    let window: LineWindow
    if step.sourceLine.utf8.count <= LineWindow.maxColumns {
      window = LineWindow(line: step.sourceLine, column: step.location.column)
    } else {
      let scalars = lines[step.location.line] ?? Array(step.sourceLine.unicodeScalars)
      lines[step.location.line] = scalars
      window = LineWindow(scalars: scalars, column: step.location.column)
    }
    windows[step.location] = window
    return window
  }

  /// What a report row shows for `step`: its line's window when the statement is the whole
  /// line, else the statement's own text (`tab health` of `tab health ; tab insights`), so
  /// two steps on one line show as two rows with their own text.
  ///
  /// - Complexity: O(1) amortized; O(s) the first time, s = the statement's scalars.
  mutating func rowText(for step: Step) -> String {
    let window = window(for: step)
    if let known = statements[step.location] { return known }
    let scalars = step.sourceLine.unicodeScalars
    let start = max(0, step.location.column - 1)
    let text: String
    if step.length <= 0 || start >= scalars.count {
      text = window.text
    } else {
      let first = scalars.index(scalars.startIndex, offsetBy: start)
      let last = scalars.index(first, offsetBy: min(step.length, scalars.count - start))
      var own = ""
      own.unicodeScalars.append(contentsOf: scalars[first..<last])
      let trimmed = step.sourceLine.trimmingCharacters(in: .whitespaces)
      text = own == trimmed ? window.text : Self.cut(own)
    }
    statements[step.location] = text
    return text
  }

  /// `text` cut to `LineWindow.maxColumns` scalars, the cut marked with `…`.
  static func cut(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > LineWindow.maxColumns else { return text }
    var shown = ""
    shown.unicodeScalars.append(contentsOf: scalars.prefix(LineWindow.maxColumns - 1))
    return shown + "…"
  }

  /// `text` as a report shows a value: whole up to `limit` Unicode scalars, else its first
  /// `limit` and how long it was.
  ///
  /// - Complexity: O(min(n, limit)), n = `text`'s UTF-8 size.
  static func clipped(_ text: String, to limit: Int = LineWindow.maxColumns) -> String {
    guard text.utf8.count > limit else { return text }
    var shown = ""
    var taken = 0
    for scalar in text.unicodeScalars {
      guard taken < limit else { break }
      shown.unicodeScalars.append(scalar)
      taken += 1
    }
    return taken < limit ? shown : shown + "… (\(text.utf8.count) bytes)"
  }
}
