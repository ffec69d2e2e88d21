/// A fixed-width text table: each column as wide as its widest cell, numbers right-aligned,
/// two spaces between columns, a header row. Widths count characters, which matches the
/// terminal for the ASCII and single-width symbols reports print.
struct TextTable {
  enum Alignment {
    case left
    case right
  }

  struct Column {
    var title: String
    var alignment: Alignment
  }

  var columns: [Column]
  var rows: [[String]] = []

  init(_ columns: [(String, Alignment)]) {
    self.columns = columns.map { Column(title: $0.0, alignment: $0.1) }
  }

  mutating func append(_ row: [String]) { rows.append(row) }

  /// The table's lines, each prefixed by `indent`, without trailing spaces.
  func lines(indent: String = "  ") -> [String] {
    var widths = columns.map(\.title.count)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], cell.count)
      }
    }
    func line(_ cells: [String]) -> String {
      var parts: [String] = []
      for (index, column) in columns.enumerated() {
        let cell = index < cells.count ? cells[index] : ""
        let padding = String(repeating: " ", count: max(0, widths[index] - cell.count))
        parts.append(column.alignment == .left ? cell + padding : padding + cell)
      }
      let joined = indent + parts.joined(separator: "  ")
      // Trailing spaces trimmed from the end (two reversals built the line character by
      // character: a tenth of a 3,000-step run's CPU went to printing its table).
      var end = joined.endIndex
      while end > joined.startIndex, joined[joined.index(before: end)] == " " {
        end = joined.index(before: end)
      }
      return String(joined[..<end])
    }
    return [line(columns.map(\.title))] + rows.map(line)
  }
}

extension String {
  /// At most `limit` characters, the last replaced by `…` when cut.
  func truncated(to limit: Int) -> String {
    count <= limit ? self : String(prefix(max(0, limit - 1))) + "…"
  }
}
