/// At most `maxColumns` columns of a source line around a column: what a diagnostic or a
/// report shows of a statement on a very long line (a 1 MB line would otherwise be copied
/// into every message and report row about it).
///
/// A line of at most `maxColumns` Unicode scalars is kept whole. A longer one is cut to
/// `leadColumns` before the column and the rest of `maxColumns` after it, with `…` where text
/// was left out; `caretColumn` is where the original column falls in the window.
///
/// - Complexity: O(w) from a line's scalars, w = `maxColumns`; O(c) from its text,
///   c = scalars in the line.
/// - Note: Isolation: a `Sendable` value.
package struct LineWindow: Sendable, Equatable {
  /// The longest line shown whole, in Unicode scalars.
  package static let maxColumns = 160
  /// How many columns before the caret a cut window keeps.
  package static let leadColumns = 40

  /// The shown text: the whole line, or a cut of it with `…` at the cut ends.
  package var text: String
  /// The 1-based column in `text` of the column asked for.
  package var caretColumn: Int

  /// The window of `line` (its scalars) around 1-based `column`.
  package init(scalars line: some RandomAccessCollection<Unicode.Scalar>, column: Int) {
    let count = line.count
    guard count > Self.maxColumns else {
      var text = ""
      text.unicodeScalars.append(contentsOf: line)
      self.init(text: text, caretColumn: column)
      return
    }
    let target = min(max(0, column - 1), count)
    let start = max(0, min(target - Self.leadColumns, count - Self.maxColumns))
    let end = min(count, start + Self.maxColumns)
    var text = start > 0 ? "…" : ""
    let first = line.index(line.startIndex, offsetBy: start)
    let last = line.index(line.startIndex, offsetBy: end)
    text.unicodeScalars.append(contentsOf: line[first..<last])
    if end < count { text += "…" }
    self.init(text: text, caretColumn: target - start + 1 + (start > 0 ? 1 : 0))
  }

  /// A window that is `text` with the caret at `caretColumn`.
  package init(text: String, caretColumn: Int) {
    self.text = text
    self.caretColumn = caretColumn
  }

  /// The window of `line` around 1-based `column`; a short line (by its UTF-8 size, O(1)) is
  /// returned as it is, sharing its storage.
  package init(line: String, column: Int) {
    if line.utf8.count <= Self.maxColumns {
      self.init(text: line, caretColumn: column)
    } else {
      self.init(scalars: Array(line.unicodeScalars), column: column)
    }
  }
}
