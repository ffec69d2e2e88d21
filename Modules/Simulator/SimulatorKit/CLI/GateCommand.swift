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

  /// Runs per gated flow; counts keep their minimum.
  static let runs = 3

  static func minimum(_ first: GateObservation, _ second: GateObservation) -> GateObservation {
    var counts = first.counts
    for (metric, value) in second.counts {
      counts[metric] = min(counts[metric] ?? value, value)
    }
    return GateObservation(flow: first.flow, counts: counts, ratios: first.ratios)
  }

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
      // Each flow runs `runs` times and every count keeps its minimum: the exact counts are
      // the same every run (deterministic delivery), and the minimum filters out the few
      // allocations the runtime makes at unpredictable times (swift-nio's rule).
      var observation: GateObservation?
      for _ in 0..<Self.runs {
        guard
          let (flow, app) = await Simulator.prepare(file, seed: nil, plugin: plugin, output: output)
        else {
          return 2
        }
        let report = await Simulator.execute(
          flow, on: app, plugin: plugin, explain: false, deterministic: true, trace: nil,
          progress: false,
          output: output)
        await Simulator.shutDown(app)
        guard report.exitCode == 0 else {
          say(TableRenderer().render(report))
          output.error("gate: \(file) failed its own expectations; fix the flow or the app first")
          return 1
        }
        let run = GateObservation(report: report)
        observation = observation.map { Self.minimum($0, run) } ?? run
      }
      if let observation { observations.append(observation) }
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
