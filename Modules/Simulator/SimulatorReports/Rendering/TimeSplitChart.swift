/// Where each statement's wall time went, as inline SVG: one stacked bar per statement (a
/// repeated statement's runs summed) split into the fan-out (MainActor jobs delivering to
/// views: `mainActorDeliveryNanoseconds`), the database (its SQLite work on the
/// deterministic runtime: `databaseNanoseconds`) and the rest (the app's own code, the
/// runner), on a linear time axis. The longest `maxRows` statements are drawn.
///
/// - Complexity: O(s log s), s = steps.
/// - Note: Isolation: a value; any thread.
struct TimeSplitChart {
  let steps: [StepReport]
  var maxRows = 30

  private static let width = 860.0
  private static let labelWidth = 300.0
  private static let rightMargin = 90.0
  private static let top = 34.0
  private static let rowHeight = 18.0
  private static let bottom = 44.0

  /// One statement's split, in nanoseconds.
  struct Row {
    var label: String
    var fanOut: UInt64
    var database: UInt64
    var wall: UInt64
    var rest: UInt64 { wall &- min(wall, fanOut &+ database) }
  }

  /// The statements' splits, longest first, at most `maxRows`.
  var rows: [Row] {
    let all = HTMLStepTable(steps: steps).groups.compactMap { group -> Row? in
      guard let first = group.steps.first else { return nil }
      let wall = group.steps.reduce(0) { $0 &+ $1.metrics.wallNanoseconds }
      guard wall > 0 else { return nil }
      let times = group.isFolded ? " ×\(group.steps.count)" : ""
      return Row(
        label: "#\(first.index) line \(first.line): \(first.source.truncated(to: 28))\(times)",
        fanOut: group.steps.reduce(0) { $0 &+ $1.metrics.mainActorDeliveryNanoseconds },
        database: group.steps.reduce(0) { $0 &+ $1.metrics.databaseNanoseconds },
        wall: wall)
    }
    return Array(all.sorted { $0.wall > $1.wall }.prefix(maxRows))
  }

  /// The SVG, or `nil` when no step took measurable time.
  func svg() -> String? {
    let rows = self.rows
    guard let longest = rows.map(\.wall).max(), longest > 0 else { return nil }
    let plotWidth = Self.width - Self.labelWidth - Self.rightMargin
    let plotBottom = Self.top + Double(rows.count) * Self.rowHeight
    let height = plotBottom + Self.bottom
    func x(_ nanoseconds: UInt64) -> Double {
      Self.labelWidth + plotWidth * Double(nanoseconds) / Double(longest)
    }
    var svg = [
      "<svg width=\"\(svgNumber(Self.width))\" height=\"\(svgNumber(height))\" "
        + "viewBox=\"0 0 \(svgNumber(Self.width)) \(svgNumber(height))\" role=\"img\" "
        + "aria-label=\"where each step's time went\">",
      "<title>Wall time per statement: fan-out, database and the rest</title>",
    ]
    for (index, part) in [("fan-out", "s1"), ("database", "s2"), ("rest", "rest")].enumerated() {
      let legendX = Self.labelWidth + Double(index) * 100
      svg.append(
        "<rect class=\"\(part.1)\" x=\"\(svgNumber(legendX))\" y=\"10\" width=\"12\" "
          + "height=\"10\"/><text x=\"\(svgNumber(legendX + 16))\" y=\"19\">\(part.0)</text>")
    }
    for (index, row) in rows.enumerated() {
      let y = Self.top + Double(index) * Self.rowHeight
      svg.append(
        "<text x=\"\(svgNumber(Self.labelWidth - 8))\" y=\"\(svgNumber(y + 12))\" "
          + "text-anchor=\"end\">\(escape(row.label))</text>")
      var start: UInt64 = 0
      for (name, cssClass, value) in [
        ("fan-out", "s1", row.fanOut), ("database", "s2", row.database),
        ("rest", "rest", row.rest),
      ] where value > 0 {
        let from = x(start)
        let to = x(start &+ value)
        svg.append(
          "<rect class=\"\(cssClass)\" x=\"\(svgNumber(from))\" y=\"\(svgNumber(y + 3))\" "
            + "width=\"\(svgNumber(max(0.5, to - from)))\" height=\"12\"><title>\(name) "
            + "\(escape(ReportUnits.duration(nanoseconds: value)))</title></rect>")
        start &+= value
      }
      svg.append(
        "<text x=\"\(svgNumber(x(row.wall) + 4))\" y=\"\(svgNumber(y + 12))\">"
          + "\(escape(ReportUnits.duration(nanoseconds: row.wall)))</text>")
    }
    svg.append(
      "<line class=\"axis\" x1=\"\(svgNumber(Self.labelWidth))\" y1=\"\(svgNumber(plotBottom))\" "
        + "x2=\"\(svgNumber(Self.labelWidth + plotWidth))\" y2=\"\(svgNumber(plotBottom))\"/>")
    svg.append(
      "<text x=\"\(svgNumber(Self.labelWidth + plotWidth / 2))\" "
        + "y=\"\(svgNumber(plotBottom + 24))\" text-anchor=\"middle\">wall time (linear; a "
        + "repeated statement's runs summed)</text>")
    svg.append("</svg>")
    return svg.joined(separator: "\n")
  }
}
