import SimulatorGate
import SimulatorReports

extension SimulatorReport {
  /// Combines reports of one kind into one report, as `weft-sim merge` does.
  ///
  /// - Runs (and merged runs) become one ``RunCollection`` ordered by flow file; a flow file in
  ///   two reports is refused.
  /// - Sweeps of one flow become one sweep whose points are the union, ascending by N (a sweep
  ///   split by `--views` across machines); the steps shown are those of the run at the largest
  ///   N. Refused: another flow, seed, build configuration or Swift version (their costs do not
  ///   compare), or the same N in two reports.
  /// - Gates: the shards of one gate, see ``GateReport/merge(_:)``.
  ///
  /// Reports of different kinds (a gate and a sweep) are refused, naming both files.
  ///
  /// - Parameter reports: each report with the name of the file it came from, for messages.
  /// - Complexity: O(total size of the reports + p log p), p = runs, points or findings.
  /// - Throws: ``ReportMergeError`` naming the files that disagree.
  public static func merge(
    _ reports: [(source: String, report: SimulatorReport)]
  ) throws(ReportMergeError) -> SimulatorReport {
    guard let (firstSource, first) = reports.first else {
      throw ReportMergeError("no reports to merge")
    }
    for (source, report) in reports where report.family != first.family {
      throw ReportMergeError(
        "\(firstSource) is a \(first.kind) report but \(source) is a \(report.kind) report; "
          + "merge reports of one kind (runs, sweeps or gates)")
    }
    switch first {
    case .run, .runs:
      return .runs(try mergeRuns(reports))
    case .sweep:
      return .sweep(
        try mergeSweeps(
          reports.compactMap { source, report in
            if case .sweep(let sweep) = report { return (source, sweep) }
            return nil
          }))
    case .gate:
      return .gate(
        try GateReport.merge(
          reports.compactMap { source, report in
            if case .gate(let gate) = report { return (source, gate) }
            return nil
          }))
    }
  }

  /// Runs and merged runs merge together; sweeps and gates each only with their own kind.
  private var family: String {
    switch self {
    case .run, .runs: "runs"
    case .sweep: "sweep"
    case .gate: "gate"
    }
  }

  private static func mergeRuns(
    _ reports: [(source: String, report: SimulatorReport)]
  ) throws(ReportMergeError) -> RunCollection {
    var runs: [RunReport] = []
    var owners: [String: String] = [:]
    for (source, report) in reports {
      let contained: [RunReport]
      switch report {
      case .run(let run): contained = [run]
      case .runs(let collection): contained = collection.runs
      case .sweep, .gate: contained = []
      }
      for run in contained {
        if let other = owners[run.file] {
          throw ReportMergeError(
            "\(run.file) was run in both \(other) and \(source); merge each flow's report once")
        }
        owners[run.file] = source
        runs.append(run)
      }
    }
    return RunCollection(runs: runs.sorted { $0.file < $1.file })
  }

  private static func mergeSweeps(
    _ reports: [(source: String, report: RunReport)]
  ) throws(ReportMergeError) -> RunReport {
    guard let (firstSource, first) = reports.first else {
      throw ReportMergeError("no sweeps to merge")
    }
    var owners: [UInt64: String] = [:]
    var points: [SweepPoint] = []
    var failures: [RunFailure] = []
    var base = first
    for (source, report) in reports {
      let mismatch: String? =
        if report.file != first.file || report.flow != first.flow {
          "flows (\(first.file) vs \(report.file))"
        } else if report.seed != first.seed {
          "seeds (\(first.seed) vs \(report.seed))"
        } else if report.configuration.buildConfiguration
          != first.configuration.buildConfiguration
        {
          "builds (\(first.configuration.buildConfiguration.rawValue) vs "
            + "\(report.configuration.buildConfiguration.rawValue))"
        } else if report.configuration.swiftVersion != first.configuration.swiftVersion {
          "Swift versions (\(first.configuration.swiftVersion) vs "
            + "\(report.configuration.swiftVersion))"
        } else {
          nil
        }
      if let mismatch {
        throw ReportMergeError(
          "\(firstSource) and \(source) sweep different \(mismatch); their costs do not compare")
      }
      for point in report.sweep?.points ?? [] {
        if let other = owners[point.views] {
          throw ReportMergeError(
            "N = \(ReportUnits.count(point.views)) was swept in both \(other) and \(source)")
        }
        owners[point.views] = source
        points.append(point)
      }
      // Every size runs the same steps (only a view count differs), so a failure's step and
      // line mean the same in every report; one that failed at several sizes is listed once.
      for failure in report.failures where !failures.contains(failure) {
        failures.append(failure)
      }
      let largest = report.sweep?.points.map(\.views).max() ?? 0
      if largest > (base.sweep?.points.map(\.views).max() ?? 0) { base = report }
    }
    base.sweep = SweepReport(points: points.sorted { $0.views < $1.views })
    base.failures = failures
    return base
  }
}
