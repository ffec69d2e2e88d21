/// Prints a ``RunReport`` for people: a header, a table of the steps, a table of latencies, the
/// run's totals, the failures with expected and actual values, and — with `explain` on — the
/// views each step re-rendered grouped by cause, wasted renders flagged.
///
/// ```text
/// weft-sim · "large fan-out" · Flows/fanout-100k.flow · seed 1
/// release build · Swift 6.3 · 100,000 views · 2026-05-01T10:00:00Z
///
/// steps
///   #  line  step                    result  wall     cpu      commits  delivered  rendered …
///   1     2  views 100000 observe c…  ok     412 ms   398 ms         0          0         0 …
/// ```
///
/// The text depends only on the report: equal reports print identically.
///
/// - Complexity: O(s + c), s = steps, c = causes and sweep points.
/// - Note: Isolation: a value; `Sendable`; any thread.
public struct TableRenderer: Sendable {
  /// Whether to print the causes of re-renders (`--explain`).
  public var explain: Bool
  /// Longest step text shown in the table before it is cut with `…`.
  public var stepWidth: Int

  /// Makes a renderer.
  public init(explain: Bool = false, stepWidth: Int = 32) {
    self.explain = explain
    self.stepWidth = max(8, stepWidth)
  }

  /// The report as text, ending with a newline.
  public func render(_ report: RunReport) -> String {
    var lines = header(report)
    if !report.steps.isEmpty {
      lines += ["", "steps"] + stepTable(report.steps)
      let latencyLines = latencyTable(report.steps)
      if !latencyLines.isEmpty {
        lines += ["", "latency, commit → last affected view re-rendered"] + latencyLines
      }
    }
    lines += ["", "overall"] + overall(report.total)
    if explain { lines += explainSection(report.steps) }
    if let sweep = report.sweep, !sweep.points.isEmpty {
      lines += ["", "sweep"] + sweepTable(sweep)
    }
    lines += failureSection(report)
    return lines.joined(separator: "\n") + "\n"
  }

  private func header(_ report: RunReport) -> [String] {
    let configuration = report.configuration
    return [
      "\(report.tool) · \"\(report.flow)\" · \(report.file) · seed \(report.seed)",
      "\(configuration.buildConfiguration.rawValue) build · Swift \(configuration.swiftVersion) · "
        + "\(ReportUnits.count(configuration.viewsAttached)) views · "
        + TimestampFormat.iso8601(configuration.date),
    ]
  }

  private func stepTable(_ steps: [StepReport]) -> [String] {
    var table = TextTable([
      ("#", .right), ("line", .right), ("step", .left), ("result", .left), ("wall", .right),
      ("cpu", .right), ("commits", .right), ("delivered", .right), ("rendered", .right),
      ("skipped", .right), ("wasted", .right), ("jobs", .right), ("sql", .right),
      ("allocs", .right),
    ])
    for step in steps {
      let metrics = step.metrics
      table.append([
        "\(step.index)", "\(step.line)", step.source.truncated(to: stepWidth),
        Self.result(step.status), ReportUnits.duration(nanoseconds: metrics.wallNanoseconds),
        ReportUnits.duration(nanoseconds: metrics.cpuNanoseconds),
        ReportUnits.count(metrics.commits), ReportUnits.count(metrics.deliveries),
        ReportUnits.count(metrics.viewsRerendered), ReportUnits.count(metrics.viewsSkipped),
        ReportUnits.count(metrics.wastedRenders), ReportUnits.count(metrics.mainActorJobs),
        ReportUnits.count(metrics.sqlStatements), metrics.allocations.map(ReportUnits.count) ?? "-",
      ])
    }
    return table.lines()
  }

  private func latencyTable(_ steps: [StepReport]) -> [String] {
    var table = TextTable([
      ("#", .right), ("line", .right), ("samples", .right), ("p50", .right), ("p95", .right),
      ("p99", .right), ("max", .right), ("commits/s", .right),
    ])
    for step in steps where step.metrics.latency.count > 0 {
      let latency = step.metrics.latency
      table.append([
        "\(step.index)", "\(step.line)", ReportUnits.count(latency.count),
        ReportUnits.duration(nanoseconds: latency.p50Nanoseconds),
        ReportUnits.duration(nanoseconds: latency.p95Nanoseconds),
        ReportUnits.duration(nanoseconds: latency.p99Nanoseconds),
        ReportUnits.duration(nanoseconds: latency.maxNanoseconds),
        ReportUnits.perSecond(step.metrics.commitsPerSecond),
      ])
    }
    return table.rows.isEmpty ? [] : table.lines()
  }

  private func overall(_ total: StepMetrics) -> [String] {
    let allocations =
      total.allocations.map { count in
        let perCommit = total.allocationsPerCommit.map {
          " (\(ReportUnits.significant($0))/commit)"
        }
        return "allocations \(ReportUnits.count(count))\(perCommit ?? "")"
      } ?? "allocations not counted (debug build or counter not linked)"
    var lines = [
      "  wall \(ReportUnits.duration(nanoseconds: total.wallNanoseconds)) · "
        + "cpu \(ReportUnits.duration(nanoseconds: total.cpuNanoseconds)) · "
        + "commits \(ReportUnits.count(total.commits)) "
        + "(\(ReportUnits.perSecond(total.commitsPerSecond)))",
      "  delivered \(ReportUnits.count(total.deliveries)) · "
        + "re-rendered \(ReportUnits.count(total.viewsRerendered)) · "
        + "skipped \(ReportUnits.count(total.viewsSkipped)) · "
        + "wasted \(ReportUnits.count(total.wastedRenders))",
      "  MainActor jobs \(ReportUnits.count(total.mainActorJobs)) · "
        + "SQL statements \(ReportUnits.count(total.sqlStatements)) · \(allocations)",
    ]
    let latency = total.latency
    if latency.count > 0 {
      lines.append(
        "  latency p50 \(ReportUnits.duration(nanoseconds: latency.p50Nanoseconds)) · "
          + "p95 \(ReportUnits.duration(nanoseconds: latency.p95Nanoseconds)) · "
          + "p99 \(ReportUnits.duration(nanoseconds: latency.p99Nanoseconds)) · "
          + "max \(ReportUnits.duration(nanoseconds: latency.maxNanoseconds)) "
          + "(\(ReportUnits.count(latency.count)) sample\(latency.count == 1 ? "" : "s"))")
    } else {
      lines.append("  latency: no commit reached a view")
    }
    var memory = "  peak memory \(ReportUnits.bytes(total.peakMemoryBytes))"
    if let perView = total.bytesPerAttachedView {
      memory +=
        " · \(ReportUnits.bytes(perView)) per attached view "
        + "(\(ReportUnits.count(total.attachedViews)) views)"
    }
    lines.append(memory)
    return lines
  }

  private func explainSection(_ steps: [StepReport]) -> [String] {
    var lines = ["", "why views re-rendered"]
    let explained = steps.filter { !$0.explain.isEmpty }
    guard !explained.isEmpty else { return lines + ["  no view re-rendered"] }
    for step in explained {
      lines.append("  step \(step.index) (line \(step.line)): \(step.source)")
      var table = TextTable([
        ("views", .right), ("selector", .left), ("commits", .left), ("wasted", .left),
      ])
      for cause in step.explain {
        table.append([
          ReportUnits.count(cause.views), cause.selector, Self.commits(cause.commitVersions),
          cause.isWasted
            ? "⚠ \(ReportUnits.count(cause.wastedRenders)) wasted (value unchanged)" : "",
        ])
      }
      lines += table.lines(indent: "    ")
    }
    return lines
  }

  private func sweepTable(_ sweep: SweepReport) -> [String] {
    var table = TextTable([
      ("views", .right), ("per delivery", .right), ("fan-out/delivery", .right),
      ("idle cost/commit", .right), ("memory/view", .right), ("wall", .right), ("cpu", .right),
    ])
    for point in sweep.points {
      table.append([
        ReportUnits.count(point.views),
        ReportUnits.duration(nanoseconds: point.perDeliveryNanoseconds),
        point.fanOutPerDeliveryNanoseconds.map { ReportUnits.duration(nanoseconds: $0) } ?? "–",
        ReportUnits.duration(nanoseconds: point.idleCostPerCommitNanoseconds),
        ReportUnits.bytes(point.memoryPerViewBytes),
        ReportUnits.duration(nanoseconds: point.wallNanoseconds),
        ReportUnits.duration(nanoseconds: point.cpuNanoseconds),
      ])
    }
    return table.lines()
  }

  private func failureSection(_ report: RunReport) -> [String] {
    guard !report.failures.isEmpty else {
      return ["", report.succeeded ? "result: passed" : "result: FAILED"]
    }
    var lines = ["", "failures"]
    for failure in report.failures {
      let (location, text) = failure.located(in: report.file)
      let step = failure.step.map { " (step \($0))" } ?? ""
      lines.append("  \(location)\(step) \(text)")
      if let expectation = failure.expectation {
        let comparison = Self.comparison(expectation.expected)
        lines.append("    expected: \(expectation.subject) \(comparison)")
        lines.append("    actual:   \(expectation.subject) == \(expectation.actual)")
      }
    }
    let count = report.failures.count
    lines += ["", "result: FAILED (\(count) failure\(count == 1 ? "" : "s"))"]
    return lines
  }

  static func result(_ status: StepStatus) -> String {
    switch status {
    case .passed: "ok"
    case .failed: "FAILED"
    case .errored: "ERROR"
    case .skipped: "skipped"
    }
  }

  /// `v12`, `v12, v13`, or for long lists `v12 … v111 (100 commits)`.
  static func commits(_ versions: [UInt64]) -> String {
    switch versions.count {
    case 0: "-"
    case 1...3: versions.map { "v\($0)" }.joined(separator: ", ")
    default: "v\(versions[0]) … v\(versions[versions.count - 1]) (\(versions.count) commits)"
    }
  }

  /// `expected` as written after the subject: a bare value means `==`; an expectation made
  /// with another operator carries it (`!= 0`, `contains ada`).
  static func comparison(_ expected: String) -> String {
    let operators = ["==", "!=", "<=", ">=", "<", ">", "contains "]
    return operators.contains { expected.hasPrefix($0) } ? expected : "== " + expected
  }
}
