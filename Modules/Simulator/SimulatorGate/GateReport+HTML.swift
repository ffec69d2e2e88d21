import SimulatorReports

extension GateReport {
  /// The report as one self-contained HTML page (`weft-sim merge --format html`): the verdict,
  /// the shards and flows it covers, the failures and notes (each finding's line), and on
  /// failure the command and the regenerated thresholds to commit. Every text is escaped.
  ///
  /// - Complexity: O(size of the report).
  /// - Note: Isolation: a pure function of the value; any thread.
  public var htmlPage: String {
    var html = HTMLBuilder()
    html.open(title: "\(outcome.options.program) gate")
    html.line("<h1>\(escape(outcome.options.program)) gate</h1>")
    let shardText =
      shards.isEmpty ? "" : " · shards " + shards.map(\.description).joined(separator: ", ")
    html.line(
      "<p class=\"meta\">\(escape(outcome.options.thresholdsPath)) · "
        + "\(escape(outcome.toolchain))\(escape(shardText)) · \(flows.count) of \(plan.count) "
        + "flows</p>")
    html.line(
      passed
        ? "<p class=\"result ok\">passed: \(outcome.flowsChecked) flows, "
          + "\(outcome.countsChecked) counts exact, \(outcome.ratiosChecked) ratios within "
          + "tolerance</p>"
        : "<p class=\"result fail\">FAILED (\(outcome.failures.count) "
          + "problem\(outcome.failures.count == 1 ? "" : "s"))</p>")
    html.line("<h2>Flows</h2>")
    let failing = Set(outcome.failures.compactMap(\.flow))
    html.table(
      headers: ["flow", "result"],
      rows: flows.map { [$0, failing.contains($0) ? "FAILED" : "passed"] },
      rowClass: { failing.contains(flows[$0]) ? "bad" : nil })
    for (title, findings) in [("Failures", outcome.failures), ("Notes", outcome.notes)]
    where !findings.isEmpty {
      html.line("<h2>\(title)</h2>")
      html.line("<ul class=\"failures\">")
      for finding in findings { html.line("<li><code>\(escape(finding.line))</code></li>") }
      html.line("</ul>")
    }
    if !passed {
      html.line("<h2>If the change is intended</h2>")
      html.line(
        "<p>Regenerate the thresholds and commit them: "
          + "<code>\(escape(outcome.options.updateCommand))</code></p>")
      html.line(
        "<div class=\"wide\"><pre>\(escape(outcome.regeneratedJSON))</pre></div>")
    }
    html.close()
    return html.text
  }
}
