import SimulatorReports

extension GateReport {
  /// Combines the shard reports of one gate into the report of the whole gate.
  ///
  /// The result has the union of the findings in the order one unsharded run prints them
  /// (a missing toolchain once; then by flow key, each flow's findings in the order its shard
  /// found them; then the recorded flows no shard ran), the summed counts, the verdict (failed
  /// if any shard failed) and the thresholds regenerated from every shard's measurements.
  ///
  /// Refused, naming the files: a report that is not a shard; shards of different splits
  /// (`2/4` and `1/3`), of different plans (flow lists), toolchains or thresholds; the same
  /// shard twice; a flow in two reports; and a missing shard — a merge that passed without one
  /// would pass a gate that never ran some flows.
  ///
  /// - Parameter reports: each report with the name of the file it came from, for messages.
  /// - Complexity: O(r × p + f log f), r = reports, p = plan length, f = findings.
  /// - Throws: ``ReportMergeError`` saying which files disagree and how.
  public static func merge(
    _ reports: [(source: String, report: GateReport)]
  ) throws(ReportMergeError) -> GateReport {
    guard let (firstSource, first) = reports.first else {
      throw ReportMergeError("no gate reports to merge")
    }
    let toolchain = first.outcome.toolchain
    var owners: [GateShard: String] = [:]
    var flowOwners: [String: String] = [:]
    for (source, report) in reports {
      guard report.shards.count >= 1 else {
        throw ReportMergeError(
          "\(source) is the report of a whole gate, not of a shard; merge combines the shard "
            + "reports of one gate (\(report.outcome.options.program) gate --shard K/N --json)")
      }
      try checkSameGate(source, report, as: firstSource, first)
      for shard in report.shards {
        if let other = owners[shard] {
          throw ReportMergeError("\(other) and \(source) are both shard \(shard)")
        }
        owners[shard] = source
      }
      for flow in report.flows {
        if let other = flowOwners[flow] {
          throw ReportMergeError("flow '\(flow)' is in both \(other) and \(source)")
        }
        flowOwners[flow] = source
      }
    }
    let count = first.shards[0].count
    let missing = (1...count).compactMap { GateShard(index: $0, count: count) }
      .filter { owners[$0] == nil }
    guard missing.isEmpty else {
      throw ReportMergeError(
        "missing shard\(missing.count == 1 ? "" : "s") "
          + missing.map(\.description).joined(separator: ", ") + " of the \(count) (given: "
          + owners.keys.sorted().map { "\($0) in \(owners[$0]!)" }.joined(separator: ", ")
          + "); merge every shard of the gate")
    }

    let all = reports.map(\.report)
    var regenerated = first.outcome.regenerated
    var recorded: [String: FlowThresholds] = [:]
    for report in all {
      for (flow, thresholds) in report.outcome.regenerated.toolchains[toolchain]?.flows ?? [:] {
        recorded[flow] = thresholds
      }
    }
    regenerated.toolchains[toolchain] = ToolchainThresholds(flows: recorded)
    let outcome = GateOutcome(
      findings: mergedFindings(all.map(\.outcome.findings)), toolchain: toolchain,
      flowsChecked: all.reduce(0) { $0 + $1.outcome.flowsChecked },
      countsChecked: all.reduce(0) { $0 + $1.outcome.countsChecked },
      ratiosChecked: all.reduce(0) { $0 + $1.outcome.ratiosChecked }, regenerated: regenerated,
      options: first.outcome.options)
    let flows = first.plan.filter { flowOwners[$0] != nil }
    return GateReport(
      outcome: outcome, shards: owners.keys.sorted(), plan: first.plan, flows: flows,
      files: all.flatMap(\.files).sorted())
  }

  /// Throws unless `report` is a share of the same gate as `first`: the same split, plan,
  /// toolchain, thresholds file and update command, and the same thresholds apart from the
  /// toolchain's flows (the part each shard regenerates from its own measurements).
  private static func checkSameGate(
    _ source: String, _ report: GateReport, as firstSource: String, _ first: GateReport
  ) throws(ReportMergeError) {
    let count = first.shards[0].count
    if let other = report.shards.first(where: { $0.count != count }) {
      throw ReportMergeError(
        "\(firstSource) is a shard of \(count) but \(source) is shard \(other): merge the "
          + "shards of one split")
    }
    guard report.plan == first.plan else {
      throw ReportMergeError(
        "\(firstSource) and \(source) are shards of different gates: their flow lists differ "
          + "(\(first.plan.joined(separator: ", ")) vs \(report.plan.joined(separator: ", "))); "
          + "run every shard on the same checkout and flows")
    }
    let toolchain = first.outcome.toolchain
    guard report.outcome.toolchain == toolchain else {
      throw ReportMergeError(
        "\(firstSource) was gated with \(toolchain) but \(source) with "
          + "\(report.outcome.toolchain): run every shard with the same compiler")
    }
    var mine = report.outcome.regenerated
    var theirs = first.outcome.regenerated
    mine.toolchains[toolchain] = nil
    theirs.toolchains[toolchain] = nil
    guard report.outcome.options == first.outcome.options, mine == theirs else {
      throw ReportMergeError(
        "\(firstSource) and \(source) were judged against different thresholds "
          + "(\(first.outcome.options.thresholdsPath) vs "
          + "\(report.outcome.options.thresholdsPath)); run every shard on the same checkout")
    }
  }

  /// The findings of every shard in the order an unsharded ``GateCore`` gives them.
  static func mergedFindings(_ shards: [[GateFinding]]) -> [GateFinding] {
    var global: [GateFinding] = []
    var perFlow: [(flow: String, finding: GateFinding)] = []
    var notMeasured: [(flow: String, finding: GateFinding)] = []
    for finding in shards.joined() {
      switch finding {
      case .flowNotMeasured(let flow):
        notMeasured.append((flow, finding))
      default:
        if let flow = finding.flow {
          perFlow.append((flow, finding))
        } else if !global.contains(finding) {
          // A missing toolchain is found by every shard; the whole gate reports it once.
          global.append(finding)
        }
      }
    }
    // Stable: within one flow (all from one shard), the shard's order stays.
    let ordered = perFlow.enumerated().sorted { lhs, rhs in
      lhs.element.flow != rhs.element.flow
        ? lhs.element.flow < rhs.element.flow : lhs.offset < rhs.offset
    }
    return global + ordered.map(\.element.finding)
      + notMeasured.sorted { $0.flow < $1.flow }.map(\.finding)
  }
}
