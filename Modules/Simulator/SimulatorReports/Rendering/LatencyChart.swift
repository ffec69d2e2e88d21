/// The latency distribution per step as inline SVG: one row per step that measured latency,
/// a bar per percentile its samples support (p50, p95, p99, max; see
/// `LatencyStats.supportedPercentiles`) on a shared logarithmic time axis with decade ticks.
struct LatencyChart {
  let steps: [StepReport]

  private static let width = 860.0
  private static let labelWidth = 300.0
  private static let rightMargin = 70.0
  private static let top = 34.0
  private static let barHeight = 7.0
  private static let rowHeight = 4 * 7.0 + 10
  private static let bottom = 44.0

  /// One row per statement: a step's own latency, or a repeated statement's distribution of
  /// step maxima (`HTMLStepTable.latency(of:)`), labelled with what it counts.
  private var rows: [(label: String, latency: LatencyStats)] {
    HTMLStepTable(steps: steps).groups.compactMap { group in
      guard let first = group.steps.first else { return nil }
      let place = "#\(first.index) line \(first.line): "
      if group.isFolded {
        guard let latency = HTMLStepTable.latency(of: group.steps) else { return nil }
        return (
          place + first.source.truncated(to: 26) + " ×\(group.steps.count) (step maxima)",
          latency
        )
      }
      let latency = first.metrics.latency
      guard latency.count > 0 else { return nil }
      let samples = latency.count == 1 ? "1 sample" : "\(ReportUnits.count(latency.count)) samples"
      return (place + first.source.truncated(to: 30) + " (\(samples))", latency)
    }
  }

  /// The SVG, or `nil` when no step measured a latency.
  func svg() -> String? {
    let rows = self.rows
    let values = rows.flatMap { row -> [Double] in
      let latency = row.latency
      return [
        latency.p50Nanoseconds, latency.p95Nanoseconds, latency.p99Nanoseconds,
        latency.maxNanoseconds,
      ].map { Double($0) }
    }
    guard !rows.isEmpty,
      let axis = LogAxis(
        values: values, start: Self.labelWidth, end: Self.width - Self.rightMargin)
    else { return nil }
    let plotBottom = Self.top + Double(rows.count) * Self.rowHeight
    let height = plotBottom + Self.bottom
    var svg = [
      "<svg width=\"\(svgNumber(Self.width))\" height=\"\(svgNumber(height))\" "
        + "viewBox=\"0 0 \(svgNumber(Self.width)) \(svgNumber(height))\" role=\"img\" "
        + "aria-label=\"latency per step\">",
      "<title>Latency from commit to last affected view, per step (log scale)</title>",
    ]
    // Legend.
    for (index, name) in ["p50", "p95", "p99", "max"].enumerated() {
      let x = Self.labelWidth + Double(index) * 70
      svg.append(
        "<rect class=\"\(name)\" x=\"\(svgNumber(x))\" y=\"10\" width=\"12\" height=\"10\"/>"
          + "<text x=\"\(svgNumber(x + 16))\" y=\"19\">\(name)</text>")
    }
    // Decade grid and tick labels.
    for tick in axis.ticks {
      let x = svgNumber(axis.position(tick))
      svg.append(
        "<line class=\"grid\" x1=\"\(x)\" y1=\"\(svgNumber(Self.top - 4))\" x2=\"\(x)\" "
          + "y2=\"\(svgNumber(plotBottom))\"/>"
          + "<text x=\"\(x)\" y=\"\(svgNumber(plotBottom + 16))\" text-anchor=\"middle\">"
          + "\(escape(trimmingZeros(ReportUnits.duration(nanoseconds: tick))))</text>")
    }
    svg.append(
      "<line class=\"axis\" x1=\"\(svgNumber(Self.labelWidth))\" y1=\"\(svgNumber(plotBottom))\" "
        + "x2=\"\(svgNumber(Self.width - Self.rightMargin))\" y2=\"\(svgNumber(plotBottom))\"/>")
    svg.append(
      "<text x=\"\(svgNumber((Self.labelWidth + Self.width - Self.rightMargin) / 2))\" "
        + "y=\"\(svgNumber(plotBottom + 36))\" text-anchor=\"middle\">"
        + "commit → last affected view re-rendered (log scale)</text>")
    // One row per statement.
    for (index, row) in rows.enumerated() {
      let latency = row.latency
      let rowTop = Self.top + Double(index) * Self.rowHeight
      let label = row.label
      svg.append(
        "<text x=\"\(svgNumber(Self.labelWidth - 8))\" "
          + "y=\"\(svgNumber(rowTop + 2 * Self.barHeight + 4))\" text-anchor=\"end\">"
          + "\(escape(label))</text>")
      let slots = ["p50": 0, "p95": 1, "p99": 2, "max": 3]
      for bar in latency.supportedPercentiles {
        let y = rowTop + Double(slots[bar.name] ?? 3) * Self.barHeight
        let end = axis.position(Double(bar.nanoseconds))
        let text = ReportUnits.duration(nanoseconds: bar.nanoseconds)
        svg.append(
          "<rect class=\"\(bar.name)\" x=\"\(svgNumber(Self.labelWidth))\" y=\"\(svgNumber(y))\" "
            + "width=\"\(svgNumber(max(0, end - Self.labelWidth)))\" "
            + "height=\"\(svgNumber(Self.barHeight - 1))\"><title>\(bar.name) \(escape(text))"
            + "</title></rect>")
      }
      svg.append(
        "<text x=\"\(svgNumber(axis.position(Double(latency.maxNanoseconds)) + 4))\" "
          + "y=\"\(svgNumber(rowTop + 4 * Self.barHeight - 1))\">"
          + "\(escape(ReportUnits.duration(nanoseconds: latency.maxNanoseconds)))</text>")
    }
    svg.append("</svg>")
    return svg.joined(separator: "\n")
  }
}
