/// The HTML report's steps table: one row per step, except that the steps of one statement
/// run more than once (a `repeat` body) fold into one row with their count and the
/// distribution of their wall and CPU time (p50, p95, max), the single steps in an
/// expandable row below it. Latency shows only the percentiles its sample count supports.
/// Narrow enough for a 1280 px window: the step's text wraps, figures do not.
///
/// - Complexity: O(s log s), s = steps (sorting each group's times).
/// - Note: Isolation: a value; any thread.
struct HTMLStepTable {
  let steps: [StepReport]

  static let headers = [
    "#", "line", "step", "result", "wall", "cpu", "commits", "delivered", "rendered", "skipped",
    "wasted", "jobs", "SQL", "allocs", "latency",
  ]

  /// One statement's steps: a single step, or every run of a repeated statement.
  struct Group {
    var steps: [StepReport]
    var isFolded: Bool { steps.count > 1 }
  }

  /// Steps grouped by statement (line and text), in the order each statement first ran.
  var groups: [Group] {
    var order: [String] = []
    var byStatement: [String: [StepReport]] = [:]
    for step in steps {
      let key = "\(step.line)\u{0}\(step.source)"
      if byStatement[key] == nil { order.append(key) }
      byStatement[key, default: []].append(step)
    }
    return order.map { Group(steps: byStatement[$0] ?? []) }
  }

  func render(into html: inout HTMLBuilder) {
    html.line("<div class=\"wide\"><table class=\"steps\">")
    html.line("<tr>" + Self.headers.map { "<th>\(escape($0))</th>" }.joined() + "</tr>")
    for group in groups {
      if group.isFolded {
        folded(group, into: &html)
      } else if let step = group.steps.first {
        html.line(row(step))
      }
    }
    html.line("</table></div>")
  }

  /// One step's row.
  func row(_ step: StepReport) -> String {
    let metrics = step.metrics
    let cells = [
      cell("\(step.index)"), cell("\(step.line)"), cell(step.source, class: "src"),
      cell(TableRenderer.result(step.status)),
      cell(ReportUnits.duration(nanoseconds: metrics.wallNanoseconds)),
      cell(ReportUnits.duration(nanoseconds: metrics.cpuNanoseconds)),
      cell(ReportUnits.count(metrics.commits)),
      cell(ReportUnits.count(metrics.deliveries)),
      cell(ReportUnits.count(metrics.viewsRerendered)),
      cell(ReportUnits.count(metrics.viewsSkipped)),
      cell(ReportUnits.count(metrics.wastedRenders)),
      cell(ReportUnits.count(metrics.mainActorJobs)),
      cell(ReportUnits.count(metrics.sqlStatements)),
      cell(metrics.allocations.map(ReportUnits.count) ?? "-"),
      cell(Self.latency(metrics.latency), class: "lat"),
    ]
    return "<tr\(step.status == .passed ? "" : " class=\"bad\"")>" + cells.joined() + "</tr>"
  }

  /// A repeated statement's row, then its steps in an expandable row.
  private func folded(_ group: Group, into html: inout HTMLBuilder) {
    let steps = group.steps
    let first = steps[0]
    let failed = steps.filter { $0.status != .passed }.count
    let result =
      failed == 0 ? "ok ×\(steps.count)" : "FAILED \(failed) of \(steps.count)"
    func sum(_ value: (StepMetrics) -> UInt64) -> String {
      ReportUnits.count(steps.reduce(0) { $0 &+ value($1.metrics) })
    }
    let allocations = steps.compactMap(\.metrics.allocations)
    let latency = Self.latency(of: steps)
    let cells = [
      cell("\(first.index)–\(steps[steps.count - 1].index)"), cell("\(first.line)"),
      cell(first.source + " ×\(steps.count)", class: "src"), cell(result),
      distribution(steps.map(\.metrics.wallNanoseconds)),
      distribution(steps.map(\.metrics.cpuNanoseconds)),
      cell("Σ " + sum(\.commits)), cell("Σ " + sum(\.deliveries)),
      cell("Σ " + sum(\.viewsRerendered)), cell("Σ " + sum(\.viewsSkipped)),
      cell("Σ " + sum(\.wastedRenders)), cell("Σ " + sum(\.mainActorJobs)),
      cell("Σ " + sum(\.sqlStatements)),
      cell(
        allocations.count == steps.count
          ? "Σ " + ReportUnits.count(allocations.reduce(0, &+)) : "-"),
      cell(latency.map { Self.latency($0) + " step maxima" } ?? "-", class: "lat"),
    ]
    html.line(
      "<tr class=\"group\(failed > 0 ? " bad" : "")\">" + cells.joined() + "</tr>")
    html.line(
      "<tr class=\"members\"><td colspan=\"\(Self.headers.count)\"><details><summary>the "
        + "\(steps.count) steps</summary><table class=\"steps\">")
    for step in steps { html.line(row(step)) }
    html.line("</table></details></td></tr>")
  }

  /// The distribution of a repeated statement's latency over its runs: the percentiles of the
  /// steps' maxima (one sample per step that measured any; a step's own samples are already
  /// summarized), or `nil` when none measured latency.
  ///
  /// - Complexity: O(s log s), s = steps.
  static func latency(of steps: [StepReport]) -> LatencyStats? {
    let maxima = steps.filter { $0.metrics.latency.count > 0 }
      .map(\.metrics.latency.maxNanoseconds).sorted()
    guard !maxima.isEmpty else { return nil }
    func percentile(_ fraction: Double) -> UInt64 {
      maxima[min(maxima.count - 1, Int((Double(maxima.count - 1) * fraction).rounded(.up)))]
    }
    return LatencyStats(
      count: UInt64(maxima.count), p50: percentile(0.5), p95: percentile(0.95),
      p99: percentile(0.99), max: maxima[maxima.count - 1])
  }

  /// p50 on the first line, p95 and max below, for a group's times.
  private func distribution(_ values: [UInt64]) -> String {
    let sorted = values.sorted()
    func percentile(_ fraction: Double) -> UInt64 {
      sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded(.up)))]
    }
    let p50 = ReportUnits.duration(nanoseconds: percentile(0.5))
    let p95 = ReportUnits.duration(nanoseconds: percentile(0.95))
    let max = ReportUnits.duration(nanoseconds: sorted.last ?? 0)
    return "<td>p50 \(escape(p50))<br><small>p95 \(escape(p95))<br>max \(escape(max))</small></td>"
  }

  /// Latency as far as the samples support it: none; max alone under 5 samples; p50 from 5;
  /// p95 from 20; p99 from 100 — a p99 of 3 samples is only their maximum.
  static func latency(_ latency: LatencyStats) -> String {
    guard latency.count > 0 else { return "-" }
    return latency.supportedPercentiles.map {
      "\($0.name) " + ReportUnits.duration(nanoseconds: $0.nanoseconds)
    }.joined(separator: " · ") + " (\(ReportUnits.count(latency.count)))"
  }

  private func cell(_ text: String, class name: String? = nil) -> String {
    "<td\(name.map { " class=\"\($0)\"" } ?? "")>\(escape(text))</td>"
  }
}
