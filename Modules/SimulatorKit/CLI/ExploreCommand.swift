import WeftRuntime

/// `weft-sim explore FLOW --schedules N`: runs the flow once per schedule seed 1…N on the
/// deterministic runtime, groups the runs by outcome (failed expectations and the final
/// value of every path), and prints each outcome with the first schedule seed that gave it
/// — `weft-sim run FLOW --schedule-seed S` replays it. Exits 1 when any schedule failed.
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

  /// One distinct outcome and the schedules that gave it.
  struct Outcome {
    var failures: [String]
    var finalValues: String
    var seeds: [UInt64] = []
  }

  func run() async -> Int32 {
    guard plugin.scheduling == .deterministic, let runtime = DeterministicRuntime.current else {
      output.error(
        "error: explore needs an app on the deterministic runtime: give its plug-in "
          + "`scheduling: .deterministic` and start it with `Simulator.start` "
          + "(docs/simulate-your-app.md)")
      return 2
    }
    var outcomes: [Outcome] = []
    for scheduleSeed in 1...UInt64(arguments.schedules) {
      runtime.reset(scheduleSeed: scheduleSeed)
      guard
        let (flow, app) = await Simulator.prepare(
          arguments.flow, seed: arguments.seed, plugin: plugin, output: output,
          defines: arguments.defines, launchOptions: arguments.launchOptions)
      else { return 2 }
      let report = await Simulator.execute(
        flow, on: app, plugin: plugin, explain: false, deterministic: false, trace: nil,
        progress: false, output: output)
      let finalValues = app.traceLine()
      await Simulator.shutDown(app)
      let failures = report.failures.map(\.message)
      if let index = outcomes.firstIndex(where: {
        $0.failures == failures && $0.finalValues == finalValues
      }) {
        outcomes[index].seeds.append(scheduleSeed)
      } else {
        outcomes.append(
          Outcome(failures: failures, finalValues: finalValues, seeds: [scheduleSeed]))
      }
    }
    runtime.reset(scheduleSeed: nil)
    output.standard(render(outcomes))
    return outcomes.contains { !$0.failures.isEmpty } ? 1 : 0
  }

  /// The summary: one block per outcome, failing outcomes first.
  func render(_ outcomes: [Outcome]) -> String {
    let failing = outcomes.filter { !$0.failures.isEmpty }
    var lines = [
      "explore · \(arguments.flow) · \(arguments.schedules) schedules · "
        + "\(outcomes.count) distinct outcome\(outcomes.count == 1 ? "" : "s")"
        + (failing.isEmpty ? " · every schedule passed" : " · \(failing.count) failing")
    ]
    let ordered = failing + outcomes.filter { $0.failures.isEmpty }
    for (number, outcome) in ordered.enumerated() {
      let first = outcome.seeds[0]
      let verdict = outcome.failures.isEmpty ? "passed" : "FAILED"
      lines.append("")
      lines.append(
        "outcome \(number + 1): \(verdict) in \(outcome.seeds.count) of \(arguments.schedules) "
          + "schedules (first: schedule seed \(first))")
      for failure in outcome.failures {
        lines.append(contentsOf: failure.split(separator: "\n").map { "  \($0)" })
      }
      lines.append("  final: \(outcome.finalValues)")
      lines.append(
        "  replay: \(program) run \(arguments.flow) --schedule-seed \(first)")
    }
    return lines.joined(separator: "\n")
  }
}
