/// Prints a ``RunReport`` as one self-contained HTML page (`--html FILE`): failures first, then
/// for a sweep its charts (cost per delivery, idle cost per commit and memory per view
/// against N, each on its own log-log axes) and table, then the steps (a repeated
/// statement folded into one row, expandable; see `HTMLStepTable`), an inline SVG chart of
/// the latency distribution per step, the totals and the causes of re-renders.
///
/// The page needs nothing else: no scripts, no stylesheets or fonts to fetch, no images —
/// open it from disk, mail it, attach it to a CI run. Every piece of text from the report is
/// escaped, so a flow name or step cannot inject markup.
///
/// - Complexity: O(s + p), s = steps and causes, p = sweep points.
/// - Note: Isolation: a value; `Sendable`; any thread.
public struct HTMLRenderer: Sendable {
  /// Makes a renderer.
  public init() {}

  /// The page, ending with a newline.
  public func render(_ report: RunReport) -> String {
    var html = HTMLBuilder()
    html.open(title: "weft-sim · \(report.flow)")
    html.line("<h1>weft-sim report: \(escape(report.flow))</h1>")
    body(report, into: &html)
    html.close()
    return html.text
  }

  /// Merged runs as one page: a table of the runs with their results, then each run's report
  /// in the order of the table.
  ///
  /// - Complexity: O(total size of the runs).
  public func render(_ collection: RunCollection) -> String {
    var html = HTMLBuilder()
    let runs = collection.runs
    html.open(title: "weft-sim · \(runs.count) runs")
    html.line("<h1>weft-sim report: \(runs.count) run\(runs.count == 1 ? "" : "s")</h1>")
    let failed = runs.filter { !$0.succeeded }.count
    html.line(
      failed == 0
        ? "<p class=\"result ok\">passed</p>"
        : "<p class=\"result fail\">FAILED (\(failed) of \(runs.count) runs)</p>")
    html.table(
      headers: ["flow", "file", "result", "failures", "wall", "commits", "views"],
      rows: runs.map { run in
        [
          run.flow, run.file, run.succeeded ? "passed" : "FAILED", "\(run.failures.count)",
          ReportUnits.duration(nanoseconds: run.total.wallNanoseconds),
          ReportUnits.count(run.total.commits), ReportUnits.count(run.configuration.viewsAttached),
        ]
      },
      rowClass: { runs[$0].succeeded ? nil : "bad" })
    for run in runs {
      html.line("<hr>")
      html.line("<h1>\(escape(run.flow))</h1>")
      body(run, into: &html)
    }
    html.close()
    return html.text
  }

  /// Everything under a report's title: its meta line, result and sections.
  private func body(_ report: RunReport, into html: inout HTMLBuilder) {
    html.line("<p class=\"meta\">\(escape(meta(report)))</p>")
    let failures = report.failures.count
    html.line(
      report.succeeded
        ? "<p class=\"result ok\">passed</p>"
        : "<p class=\"result fail\">FAILED"
          + (failures > 0 ? " (\(failures) failure\(failures == 1 ? "" : "s"))" : "") + "</p>")
    // Failures first: a failed run is read for why it failed.
    failureList(report, into: &html)
    // A sweep leads with what it was asked for: the cost against N. The steps that follow are
    // those of the run at the last size (the largest, as --views lists them), long and detailed.
    let sweep = report.sweep.flatMap { $0.points.isEmpty ? nil : $0 }
    if let sweep { self.sweep(sweep, into: &html) }
    if !report.steps.isEmpty {
      if let size = sweep?.points.last?.views {
        html.line("<h2>Steps of the run at N = \(ReportUnits.count(size))</h2>")
      } else {
        html.line("<h2>Steps</h2>")
      }
      stepTable(report.steps, into: &html)
      if let split = TimeSplitChart(steps: report.steps).svg() {
        html.line("<h2>Where the time went: fan-out, database and the rest</h2>")
        html.wide(split)
      }
      html.line("<h2>Latency, commit → last affected view re-rendered</h2>")
      html.wide(
        LatencyChart(steps: report.steps).svg()
          ?? "<p class=\"note\">No commit reached a view.</p>")
    }
    html.line("<h2>Overall</h2>")
    overall(report.total, into: &html)
    explain(report.steps, into: &html)
  }

  private func meta(_ report: RunReport) -> String {
    let configuration = report.configuration
    return
      "\(report.file) · seed \(report.seed) · \(configuration.buildConfiguration.rawValue) "
      + "build · Swift \(configuration.swiftVersion) · "
      + "\(ReportUnits.count(configuration.viewsAttached)) views · "
      + TimestampFormat.iso8601(configuration.date)
  }

  private func stepTable(_ steps: [StepReport], into html: inout HTMLBuilder) {
    HTMLStepTable(steps: steps).render(into: &html)
  }

  private func overall(_ total: StepMetrics, into html: inout HTMLBuilder) {
    var rows: [[String]] = [
      ["wall time", ReportUnits.duration(nanoseconds: total.wallNanoseconds)],
      ["CPU time", ReportUnits.duration(nanoseconds: total.cpuNanoseconds)],
      ["commits", ReportUnits.count(total.commits)],
      ["commits per second", ReportUnits.perSecond(total.commitsPerSecond)],
      ["deliveries", ReportUnits.count(total.deliveries)],
      ["views re-rendered", ReportUnits.count(total.viewsRerendered)],
      ["views skipped (unchanged)", ReportUnits.count(total.viewsSkipped)],
      ["wasted renders", ReportUnits.count(total.wastedRenders)],
      ["MainActor jobs", ReportUnits.count(total.mainActorJobs)],
      ["SQL statements", ReportUnits.count(total.sqlStatements)],
      ["allocations", total.allocations.map(ReportUnits.count) ?? "not counted"],
    ]
    if let perCommit = total.allocationsPerCommit {
      rows.append(["allocations per commit", ReportUnits.significant(perCommit)])
    }
    if total.latency.count > 0 {
      rows.append(["latency (samples)", HTMLStepTable.latency(total.latency)])
    }
    rows.append(["peak memory", ReportUnits.bytes(total.peakMemoryBytes)])
    if let perView = total.bytesPerAttachedView {
      rows.append([
        "memory per attached view",
        "\(ReportUnits.bytes(perView)) (\(ReportUnits.count(total.attachedViews)) views)",
      ])
    }
    html.table(headers: ["metric", "value"], rows: rows)
  }

  private func explain(_ steps: [StepReport], into html: inout HTMLBuilder) {
    let explained = steps.filter { !$0.explain.isEmpty }
    guard !explained.isEmpty else { return }
    html.line("<h2>Why views re-rendered</h2>")
    for step in explained {
      html.line("<h3>Step \(step.index), line \(step.line): \(escape(step.source))</h3>")
      html.table(
        headers: ["views", "selector", "commits", "wasted renders"],
        rows: step.explain.map { cause in
          [
            ReportUnits.count(cause.views), cause.selector,
            TableRenderer.commits(cause.commitVersions),
            cause.isWasted ? "⚠ \(ReportUnits.count(cause.wastedRenders)) (value unchanged)" : "0",
          ]
        },
        rowClass: { step.explain[$0].isWasted ? "bad" : nil })
    }
  }

  private func sweep(_ sweep: SweepReport, into html: inout HTMLBuilder) {
    html.line("<h2>Sweep: cost against attached views</h2>")
    let points = sweep.points
    // One quantity per chart: a delivery's cost and a commit's idle cost differ by decades,
    // and on one axis the smaller is a flat line at the bottom.
    let cost = LogLogChart(
      title: "Cost per delivery against N (CPU; and the fan-out's own time)",
      xTitle: "attached views (N, log scale)", yTitle: "time per delivery (log scale)",
      yLabel: { ReportUnits.duration(nanoseconds: $0) },
      series: [
        .init(
          name: "per delivery", cssClass: "s1",
          points: points.map { (Double($0.views), $0.perDeliveryNanoseconds) }),
        .init(
          name: "fan-out per delivery", cssClass: "s3",
          points: points.compactMap { point in
            point.fanOutPerDeliveryNanoseconds.map { (Double(point.views), $0) }
          }),
      ])
    html.wide(cost.svg() ?? "<p class=\"note\">No positive cost to plot.</p>")
    let idle = LogLogChart(
      title: "Idle cost per commit against N (a commit no attached view depends on)",
      xTitle: "attached views (N, log scale)", yTitle: "time per commit (log scale)",
      yLabel: { ReportUnits.duration(nanoseconds: $0) },
      series: [
        .init(
          name: "idle cost per commit", cssClass: "s2",
          points: points.map { (Double($0.views), $0.idleCostPerCommitNanoseconds) })
      ])
    if let svg = idle.svg() { html.wide(svg) }
    let memory = LogLogChart(
      title: "Memory per attached view against N", xTitle: "attached views (N, log scale)",
      yTitle: "bytes per view (log scale)", yLabel: { ReportUnits.bytes($0) },
      series: [
        .init(
          name: "memory per view", cssClass: "s3",
          points: points.map { (Double($0.views), $0.memoryPerViewBytes) })
      ])
    if let svg = memory.svg() { html.wide(svg) }
    html.table(
      headers: [
        "views", "per delivery", "fan-out per delivery", "idle cost per commit",
        "memory per view", "wall", "cpu",
      ],
      rows: points.map { point in
        [
          ReportUnits.count(point.views),
          ReportUnits.duration(nanoseconds: point.perDeliveryNanoseconds),
          point.fanOutPerDeliveryNanoseconds.map { ReportUnits.duration(nanoseconds: $0) } ?? "–",
          ReportUnits.duration(nanoseconds: point.idleCostPerCommitNanoseconds),
          ReportUnits.bytes(point.memoryPerViewBytes),
          ReportUnits.duration(nanoseconds: point.wallNanoseconds),
          ReportUnits.duration(nanoseconds: point.cpuNanoseconds),
        ]
      })
  }

  private func failureList(_ report: RunReport, into html: inout HTMLBuilder) {
    guard !report.failures.isEmpty else { return }
    html.line("<h2>Failures</h2>")
    html.line("<ul class=\"failures\">")
    for failure in report.failures {
      let (location, text) = failure.located(in: report.file)
      // A diagnostic's first line is the message; the source line and caret follow, kept as
      // written.
      let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
      var item = "<li><code>\(escape(location))</code> " + escape(String(parts[0]))
      if parts.count > 1 { item += "<pre>\(escape(String(parts[1])))</pre>" }
      if let expectation = failure.expectation {
        item +=
          "<br>expected <code>\(escape(expectation.subject)) == \(escape(expectation.expected))"
          + "</code>, actual <code>\(escape(expectation.actual))</code>"
      }
      html.line(item + "</li>")
    }
    html.line("</ul>")
  }

  static let style = """
    body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d1d1f}\
    h1{font-size:20px}h2{font-size:16px;margin-top:28px}h3{font-size:14px}\
    .meta,.note{color:#555}.result{font-weight:600}.ok{color:#1a7f37}.fail{color:#c62828}\
    table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 8px;border-bottom:1px solid #ddd;\
    text-align:right;white-space:nowrap}th{background:#f4f4f6}\
    table.steps{font-size:13px}table.steps th,table.steps td{padding:3px 5px}\
    table.steps td.src{text-align:left;white-space:normal;min-width:14em;max-width:26em;\
    overflow-wrap:anywhere}table.steps td.lat{white-space:normal;min-width:9em}\
    tr.group td{background:#f7f7fa}tr.members>td{padding:0 0 0 24px;text-align:left}\
    details summary{cursor:pointer;color:#555}small{color:#555}\
    tr.bad td{background:#fdecea}code{font:13px ui-monospace,monospace}\
    .wide{overflow-x:auto;max-width:100%}pre{font:13px ui-monospace,monospace;margin:4px 0}\
    svg{display:block;margin:8px 0}svg text{font:11px system-ui,sans-serif;fill:#333}\
    .grid{stroke:#e3e3e8}.axis{stroke:#888}.p50{fill:#4c78a8}.p95{fill:#72b7b2}\
    .p99{fill:#f58518}.max{fill:#e45756}.s1{stroke:#4c78a8;fill:#4c78a8}\
    .s2{stroke:#f58518;fill:#f58518}.s3{stroke:#54a24b;fill:#54a24b}\
    .line{fill:none;stroke-width:2}.dashed{stroke-dasharray:5 4}.rest{fill:#bab0ac}
    """
}

/// Escapes text for HTML and SVG element content and attribute values.
package func escape(_ text: String) -> String {
  var escaped = ""
  escaped.reserveCapacity(text.utf8.count)
  for character in text {
    switch character {
    case "&": escaped += "&amp;"
    case "<": escaped += "&lt;"
    case ">": escaped += "&gt;"
    case "\"": escaped += "&quot;"
    case "'": escaped += "&#39;"
    default: escaped.append(character)
    }
  }
  return escaped
}

/// Accumulates the page's lines.
package struct HTMLBuilder {
  package init() {}

  package private(set) var text = ""

  /// The page's head, with the renderers' style, and the opening `<body>`.
  package mutating func open(title: String) {
    line("<!DOCTYPE html>")
    line("<html lang=\"en\">")
    line("<head>")
    line("<meta charset=\"utf-8\">")
    line("<title>\(escape(title))</title>")
    line("<style>\(HTMLRenderer.style)</style>")
    line("</head>")
    line("<body>")
  }

  /// Closes the body and the page.
  package mutating func close() {
    line("</body>")
    line("</html>")
  }

  package mutating func line(_ line: String) {
    text += line
    text += "\n"
  }

  /// A table of escaped cells in a box that scrolls sideways; `rowClass` may mark a row (by
  /// index) with a CSS class, `cssClass` the table.
  package mutating func table(
    headers: [String], rows: [[String]], rowClass: (Int) -> String? = { _ in nil },
    cssClass: String? = nil
  ) {
    line("<div class=\"wide\"><table\(cssClass.map { " class=\"\($0)\"" } ?? "")>")
    line("<tr>" + headers.map { "<th>\(escape($0))</th>" }.joined() + "</tr>")
    for (index, row) in rows.enumerated() {
      let cells = row.map { "<td>\(escape($0))</td>" }.joined()
      if let cssClass = rowClass(index) {
        line("<tr class=\"\(cssClass)\">\(cells)</tr>")
      } else {
        line("<tr>\(cells)</tr>")
      }
    }
    line("</table></div>")
  }

  /// `content` (a chart) in a box that scrolls sideways when it is wider than the page.
  package mutating func wide(_ content: String) {
    line("<div class=\"wide\">\(content)</div>")
  }
}
