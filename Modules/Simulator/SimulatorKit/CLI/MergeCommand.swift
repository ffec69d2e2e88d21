import Foundation
import SimulatorReports

/// `weft-sim merge REPORT.json ... [--output FILE] [--format table|json|html]`: reads JSON
/// reports of one kind and prints (or writes) the merged report; see
/// ``SimulatorReport/merge(_:)``. Exits with the merged verdict (0 passed, 1 failed), or 2
/// when a file cannot be read or the reports do not merge.
///
/// - Note: Isolation: MainActor, like every command.
@MainActor
struct MergeCommand {
  let arguments: MergeArguments
  /// The executable's name, for the gate's text.
  let program: String
  let output: Simulator.Output

  func run() -> Int32 {
    if let code = mergeExploreReports() { return code }
    var reports: [(source: String, report: SimulatorReport)] = []
    for path in arguments.reports {
      let data: Data
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
      } catch {
        output.error("error: cannot read '\(path)': \(error.localizedDescription)")
        return 2
      }
      do throws(ReportDecodingError) {
        var report = try SimulatorReport.decode(data)
        if case .gate(var gate) = report {
          gate.outcome.options.program = program
          report = .gate(gate)
        }
        reports.append((path, report))
      } catch {
        output.error("error: \(path): \(error)")
        return 2
      }
    }
    let merged: SimulatorReport
    do throws(ReportMergeError) {
      merged = try SimulatorReport.merge(reports)
    } catch {
      output.error("error: \(error)")
      return 2
    }
    let text = Self.render(merged, as: arguments.format)
    if let path = arguments.output {
      guard Simulator.write(text, to: path, output: output) else { return 2 }
      output.error(
        "merge: \(reports.count) report\(reports.count == 1 ? "" : "s") → \(path): "
          + "\(merged.kind), \(merged.exitCode == 0 ? "passed" : "FAILED")")
    } else {
      output.standard(text)
    }
    return merged.exitCode
  }

  /// Merges `explore --json` reports (of shards), when the first file is one; `nil` when it
  /// is not, for the other report kinds.
  private func mergeExploreReports() -> Int32? {
    var parts: [ExploreOutcomes] = []
    for (position, path) in arguments.reports.enumerated() {
      let data: Data
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
      } catch {
        if position == 0 { return nil }  // the other report kinds' merge reports it
        output.error("error: cannot read '\(path)': \(error.localizedDescription)")
        return 2
      }
      guard let part = ExploreOutcomes.decode(data) else {
        if position == 0 { return nil }
        output.error("error: \(path) is not an explore report; the first file is one")
        return 2
      }
      parts.append(part)
    }
    let merged: ExploreOutcomes
    do throws(ExploreOutcomes.MergeProblem) {
      merged = try ExploreOutcomes.merge(parts)
    } catch {
      output.error("error: \(error)")
      return 2
    }
    let text: String
    switch arguments.format {
    case .json: text = merged.json()
    case .table: text = merged.render(program: program, verbose: false)
    case .html:
      output.error("error: explore reports merge to a table or JSON, not HTML")
      return 2
    }
    if let path = arguments.output {
      guard Simulator.write(text, to: path, output: output) else { return 2 }
    } else {
      output.standard(text)
    }
    return merged.failingCount > 0 ? 1 : 0
  }

  /// The merged report in `format`.
  static func render(_ report: SimulatorReport, as format: MergeArguments.Format) -> String {
    switch (report, format) {
    case (_, .json):
      return report.jsonText
    case (.run(let run), .table), (.sweep(let run), .table):
      return TableRenderer().render(run)
    case (.run(let run), .html), (.sweep(let run), .html):
      return HTMLRenderer().render(run)
    case (.gate(let gate), .table):
      return gate.text
    case (.gate(let gate), .html):
      return gate.htmlPage
    case (.runs(let runs), .html):
      return HTMLRenderer().render(runs)
    case (.runs(let runs), .table):
      let failed = runs.runs.filter { !$0.succeeded }.map(\.file)
      let summary =
        failed.isEmpty
        ? "merged \(runs.runs.count) runs: passed"
        : "merged \(runs.runs.count) runs: FAILED (\(failed.joined(separator: ", ")))"
      return runs.runs.map { TableRenderer().render($0) }.joined(separator: "\n") + "\n"
        + summary + "\n"
    }
  }
}
