import Foundation
import WeftRuntime

/// `weft-sim explore FLOW --schedules N`: runs the flow once per schedule — schedule 0 is
/// arrival order (what `run` uses), 1…N−1 the seeded draws of those schedule seeds — on the
/// deterministic runtime, groups the runs by outcome (failed expectations and the final
/// value of every path), and prints each outcome with the first schedule that gave it —
/// `weft-sim run FLOW --schedule-seed S` replays it. Exits 1 when any schedule failed.
///
/// Each run starts from a fresh launch of the app at virtual time zero; the previous run's
/// parked timers are dropped, so nothing of one run wakes in the next.
///
/// - Complexity: N runs of the flow.
/// - Note: Isolation: MainActor.
@MainActor
struct ExploreCommand {
  let arguments: ExploreArguments
  let plugin: SimulatorPlugin
  /// The executable's name, for the replay command it prints.
  let program: String
  let output: Simulator.Output

  func run() async -> Int32 {
    guard plugin.scheduling == .deterministic, let runtime = DeterministicRuntime.current else {
      output.error(
        "error: explore needs an app on the deterministic runtime: give its plug-in "
          + "`scheduling: .deterministic` and start it with `Simulator.start` "
          + "(docs/simulate-your-app.md)")
      return 2
    }
    var report = ExploreOutcomes(flow: arguments.flow)
    let started = ContinuousClock.now
    for schedule in 0..<UInt64(arguments.schedules) {
      runtime.reset(scheduleSeed: schedule == 0 ? nil : schedule)
      guard
        let (flow, app) = await Simulator.prepare(
          arguments.flow, seed: arguments.seed, plugin: plugin, output: output,
          defines: arguments.defines, launchOptions: arguments.launchOptions)
      else { return 2 }
      let result = await Simulator.execute(
        flow, on: app, plugin: plugin, explain: false, deterministic: false, trace: nil,
        progress: false, output: output)
      var final: [String: String] = [:]
      for path in app.observablePathNames {
        final[path] = app.observable(named: path).map { "\($0.read())" }
      }
      await Simulator.shutDown(app)
      report.add(schedule: schedule, failures: result.failures.map(\.message), final: final)
    }
    report.seconds = Self.seconds(started.duration(to: .now))
    runtime.reset(scheduleSeed: nil)
    output.standard(
      arguments.json ? report.json() : report.render(program: program, verbose: arguments.verbose))
    return report.failingCount > 0 ? 1 : 0
  }

  static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
