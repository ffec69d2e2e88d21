/// A line chart on log-log axes as inline SVG — cost or memory against the number of views
/// for a sweep — with decade ticks and labels on both axes and a legend. Non-positive values
/// cannot sit on a log axis and are left out of their line.
struct LogLogChart {
  struct Series {
    var name: String
    var cssClass: String
    var points: [(x: Double, y: Double)]
  }

  var title: String
  var xTitle: String
  var yTitle: String
  var yLabel: (Double) -> String
  var series: [Series]

  private static let width = 760.0
  private static let height = 380.0
  private static let left = 90.0
  private static let right = 30.0
  private static let top = 40.0
  private static let bottom = 60.0

  /// The SVG, or `nil` when no point can be plotted.
  func svg() -> String? {
    let plotted = series.map { line in
      Series(
        name: line.name, cssClass: line.cssClass,
        points: line.points.filter { $0.x > 0 && $0.y > 0 && $0.x.isFinite && $0.y.isFinite })
    }
    let points = plotted.flatMap(\.points)
    let plotRight = Self.width - Self.right
    let plotBottom = Self.height - Self.bottom
    guard
      let xAxis = LogAxis(values: points.map(\.x), start: Self.left, end: plotRight),
      let yAxis = LogAxis(values: points.map(\.y), start: plotBottom, end: Self.top)
    else { return nil }
    var svg = [
      "<svg width=\"\(svgNumber(Self.width))\" height=\"\(svgNumber(Self.height))\" "
        + "viewBox=\"0 0 \(svgNumber(Self.width)) \(svgNumber(Self.height))\" role=\"img\" "
        + "aria-label=\"\(escape(title))\">",
      "<title>\(escape(title))</title>",
    ]
    for tick in xAxis.ticks {
      let x = svgNumber(xAxis.position(tick))
      svg.append(
        "<line class=\"grid\" x1=\"\(x)\" y1=\"\(svgNumber(Self.top))\" x2=\"\(x)\" "
          + "y2=\"\(svgNumber(plotBottom))\"/><text x=\"\(x)\" y=\"\(svgNumber(plotBottom + 16))\" "
          + "text-anchor=\"middle\">\(escape(compactCount(tick)))</text>")
    }
    for tick in yAxis.ticks {
      let y = svgNumber(yAxis.position(tick))
      svg.append(
        "<line class=\"grid\" x1=\"\(svgNumber(Self.left))\" y1=\"\(y)\" "
          + "x2=\"\(svgNumber(plotRight))\" y2=\"\(y)\"/><text x=\"\(svgNumber(Self.left - 6))\" "
          + "y=\"\(svgNumber(yAxis.position(tick) + 4))\" text-anchor=\"end\">"
          + "\(escape(trimmingZeros(yLabel(tick))))</text>")
    }
    svg.append(
      "<line class=\"axis\" x1=\"\(svgNumber(Self.left))\" y1=\"\(svgNumber(plotBottom))\" "
        + "x2=\"\(svgNumber(plotRight))\" y2=\"\(svgNumber(plotBottom))\"/>"
        + "<line class=\"axis\" x1=\"\(svgNumber(Self.left))\" y1=\"\(svgNumber(Self.top))\" "
        + "x2=\"\(svgNumber(Self.left))\" y2=\"\(svgNumber(plotBottom))\"/>")
    svg.append(
      "<text x=\"\(svgNumber((Self.left + plotRight) / 2))\" y=\"\(svgNumber(plotBottom + 40))\" "
        + "text-anchor=\"middle\">\(escape(xTitle))</text>")
    svg.append(
      "<text x=\"16\" y=\"\(svgNumber((Self.top + plotBottom) / 2))\" text-anchor=\"middle\" "
        + "transform=\"rotate(-90 16 \(svgNumber((Self.top + plotBottom) / 2)))\">"
        + "\(escape(yTitle))</text>")
    for (index, line) in plotted.enumerated() {
      let legendX = Self.left + Double(index) * 190
      let dashed = index > 0 ? " dashed" : ""
      svg.append(
        "<line class=\"line \(line.cssClass)\(dashed)\" x1=\"\(svgNumber(legendX))\" y1=\"20\" "
          + "x2=\"\(svgNumber(legendX + 24))\" y2=\"20\"/><text x=\"\(svgNumber(legendX + 30))\" "
          + "y=\"24\">\(escape(line.name))</text>")
      guard !line.points.isEmpty else { continue }
      let coordinates = line.points.map {
        "\(svgNumber(xAxis.position($0.x))),\(svgNumber(yAxis.position($0.y)))"
      }
      svg.append(
        "<polyline class=\"line \(line.cssClass)\(dashed)\" "
          + "points=\"\(coordinates.joined(separator: " "))\"/>")
      for point in line.points {
        svg.append(
          "<circle class=\"\(line.cssClass)\" cx=\"\(svgNumber(xAxis.position(point.x)))\" "
            + "cy=\"\(svgNumber(yAxis.position(point.y)))\" r=\"3.5\"><title>"
            + "\(escape("\(line.name): N = \(compactCount(point.x)), \(yLabel(point.y))"))"
            + "</title></circle>")
      }
    }
    svg.append("</svg>")
    return svg.joined(separator: "\n")
  }
}
