import Foundation
import SimulatorGate
import SimulatorReports
import Synchronization
import WeftCore
import WeftSimulation

/// `weft-sim gate`: runs the gated flows with deterministic delivery, measures the fan-out
/// CPU-time ratio to a plain closure loop, and checks both against the committed thresholds.
///
/// With `--shard K/N` it runs only shard K's share of the plan (the flow files sorted by
/// path, then the ratio probe; see ``GateShard``) and judges only those flows; with `--json`
/// it prints a ``GateReport`` that `weft-sim merge` combines with the other shards'.
@MainActor
struct GateCommand {
  let arguments: GateArguments
  let plugin: SimulatorPlugin
  /// The executable's name, for the gate's text and the command that regenerates it.
  let program: String
  let output: Simulator.Output

  /// Runs per gated flow, each in a process of its own: their counts must agree exactly, or
  /// the flow is reported as not deterministic (`GateObservation.combining`).
  static let runs = 2

  /// Subscribers in the ratio probe: large enough that per-delivery cost dominates.
  static let ratioSubscribers = 10_000

  /// The key of the ratio probe's observation, the plan's last item.
  static let ratioProbeFlow = "fanout-ratio"

  /// The gate's plan: the flow keys of `files` sorted by path, then the ratio probe.
  static func plan(_ files: [String]) -> [String] {
    files.sorted().map { GateObservation.flowKey(file: $0) } + [ratioProbeFlow]
  }

  func run() async -> Int32 {
    let allFiles = (arguments.flows.isEmpty ? Self.bundledFlows() : arguments.flows).sorted()
    guard !allFiles.isEmpty else {
      output.error("error: no flows to gate (none given, and no Flows/*.flow here)")
      return 2
    }
    let plan = Self.plan(allFiles)
    let shard = arguments.shard
    // The plan is the files then the probe, so position i < files.count is file i.
    let files = allFiles.indices.filter { shard?.owns(position: $0) ?? true }.map { allFiles[$0] }
    let runsProbe = shard?.owns(position: allFiles.count) ?? true
    // With --json, standard output carries only the JSON.
    let say = arguments.json ? output.error : output.standard
    var observations: [GateObservation] = []
    for file in files {
      // Each flow runs `runs` times, each in a process of its own (as `run FLOW` does), so a
      // run's counts never depend on what ran before it in the gate's process (first-use
      // initialisations, caches) nor on which shard it is in. The counts are exact by
      // construction (the runtime owns jobs, clocks and random draws; allocations are counted
      // from requested sizes), so the runs agree; a count that does not is reported as not
      // deterministic, never judged.
      var runs: [GateObservation] = []
      for _ in 0..<Self.runs {
        switch measure(file) {
        case .success(let observation): runs.append(observation)
        case .failure(let failure):
          if let table = failure.table { say(table) }
          output.error(failure.message)
          return failure.status
        }
      }
      if let observation = GateObservation.combining(runs) { observations.append(observation) }
    }
    if runsProbe {
      observations.append(
        GateObservation(
          flow: Self.ratioProbeFlow, counts: [:],
          ratios: ["delivery": Self.measureDeliveryRatio()]))
    }

    let options = GateOptions(
      program: program, thresholdsPath: arguments.thresholds,
      updateCommand:
        "swift run -c release \(program) gate --update --thresholds " + arguments.thresholds)
    let thresholds: GateThresholds
    do throws(GateThresholdsError) {
      thresholds = try GateThresholds.load(path: arguments.thresholds)
    } catch {
      output.error("error: \(error.description(updateCommand: options.updateCommand))")
      return 2
    }
    let gate = Gate(thresholds: thresholds, options: options)
    if arguments.update {
      let unstable = observations.flatMap { observation in
        observation.variations.sorted { $0.key < $1.key }.map {
          GateFinding.countNotDeterministic(
            flow: observation.flow, metric: $0.key, values: $0.value
          ).line
        }
      }
      guard unstable.isEmpty else {
        output.error(
          "gate: not writing \(arguments.thresholds): thresholds need counts that repeat\n"
            + unstable.joined(separator: "\n"))
        return 1
      }
      do throws(GateThresholdsError) {
        try gate.record(observations).write(path: arguments.thresholds)
      } catch {
        output.error("error: \(error.description(updateCommand: options.updateCommand))")
        return 2
      }
      output.standard("gate: wrote \(arguments.thresholds) from \(observations.count) flows")
      return 0
    }
    let report = gate.check(observations, shard: shard, plan: plan, files: files) { _ in
      Self.measureDeliveryRatio()
    }
    if arguments.json {
      output.error(report.text)
      output.standard(report.jsonText)
    } else {
      output.standard(report.text)
    }
    return report.exitCode
  }

  /// Why a gated flow could not be measured, and the exit status that says so.
  struct MeasureFailure: Error {
    var message: String
    var status: Int32
    /// The run's report as a table, when the flow ran and failed its expectations.
    var table: String?
  }

  /// One run of `file` in a child process (`run FILE --json`), as a gate observation.
  func measure(_ file: String) -> Result<GateObservation, MeasureFailure> {
    let child: ChildRun
    switch ChildRun.run(["run", file, "--json", "--no-progress"]) {
    case .success(let run): child = run
    case .failure(let failure):
      return .failure(MeasureFailure(message: "error: \(failure)", status: 2))
    }
    let report: RunReport
    do throws(ReportDecodingError) {
      guard case .run(let run) = try SimulatorReport.decode(Data(child.standard.utf8)) else {
        return .failure(
          MeasureFailure(message: "error: \(file): the run printed no run report", status: 2))
      }
      report = run
    } catch {
      // The child could not run the flow (a parse error, a launch failure): its own words.
      let said = child.error.isEmpty ? "\(error)" : child.error
      return .failure(MeasureFailure(message: said, status: child.status == 0 ? 2 : child.status))
    }
    guard report.exitCode == 0 else {
      return .failure(
        MeasureFailure(
          message: "gate: \(file) failed its own expectations; fix the flow or the app first",
          status: 1, table: TableRenderer().render(report)))
    }
    return .success(GateObservation(report: report))
  }

  /// A flow whose source contains this line is run by CI but not gated (its reason
  /// follows on the same line).
  static let notGatedMarker = "# weft-sim gate: not gated"

  /// `Flows/*.flow`, without the flows marked not gated.
  static func bundledFlows() -> [String] {
    let directory = "Flows"
    // No readable Flows folder means no bundled flows; `run()` then says so and exits 2.
    let files = FileManager.default
    let names = (try? files.contentsOfDirectory(atPath: directory)) ?? []  // try?: see above
    return names.filter { $0.hasSuffix(".flow") }.sorted().map { "\(directory)/\($0)" }
      .filter { path in
        // An unreadable flow counts as gated; loading it then reports the read error with
        // the file's name and exits 2.
        let source = try? String(contentsOfFile: path, encoding: .utf8)  // try?: see above
        return !(source ?? "").contains(notGatedMarker)
      }
  }

  /// CPU-time ratio of delivering one commit to N headless views through WeftCore's
  /// MainActor fan-out, to a plain loop over N closures; interleaved rounds, median.
  static func measureDeliveryRatio() -> RatioMeasurement {
    let subscribers = ratioSubscribers
    let cell = StateCell(RatioState(), name: "gate.ratio")
    let observable = ObservablePath(
      name: "gate.value", selector: "\\RatioState.value",
      read: { .int(cell.state.value) },
      subscribe: { body in cell.observeOnMainActor(\.value) { body(.int($0.value), $0.version) } })
    let group = CountingViewGroup(name: "gate", observable: observable)
    group.attach(subscribers, to: observable)
    let sinks = (0..<subscribers).map { _ in RatioSink() }
    let closures: [(Int) -> Void] = sinks.map { sink in { sink.value = $0 } }
    var next = 0
    let measurement = RatioProbe(rounds: 15, warmupRounds: 2).measure(
      workload: {
        next += 1
        let value = next
        cell.update { $0.value = value }
        cell.deliverPendingMainActorChanges()
      },
      floor: {
        next += 1
        for closure in closures { closure(next) }
      })
    group.detach(nil)
    return measurement
  }
}

struct RatioState: Sendable, Equatable {
  var value = 0
}

/// The floor's stand-in for a view.
final class RatioSink {
  var value = 0
}
