import Foundation
import WeftRuntime

/// `weft-sim explore FLOW`: runs the flow under many schedules of the deterministic runtime,
/// groups the runs by outcome (failed expectations and the final value of every path), and
/// prints each outcome with the first schedule that gave it and how to replay it. Exits 1
/// when any schedule failed.
///
/// Strategies: `random` runs schedule 0 (arrival order, what `run` uses), then schedule seeds
/// 1…N−1; `pct` the same with PCT schedules of depth D (`--depth`, `PCTPolicy`), their change
/// points drawn among arrival order's decisions; `exhaustive` runs every distinct schedule
/// with at most K preemptions (`--preemptions K`, `ExhaustiveWalk`), depth first, and says
/// whether it covered them all within `--schedules`. The first failing outcome is shrunk to the fewest deviations found and
/// printed as a schedule string (`run --schedule`).
///
/// Each run starts from a fresh launch of the app at virtual time zero; the previous run's
/// parked timers are dropped, so nothing of one run wakes in the next.
///
/// - Complexity: N runs of the flow, plus the shrinking's runs (at most `shrinkLimit`).
/// - Note: Isolation: MainActor.
@MainActor
struct ExploreCommand {
  let arguments: ExploreArguments
  let plugin: SimulatorPlugin
  /// The executable's name, for the replay command it prints.
  let program: String
  let output: Simulator.Output

  /// The most runs shrinking a failing schedule may take.
  static let shrinkLimit = 400

  /// One run's result.
  struct Run {
    var failures: [String]
    var final: [String: String]
    var chooser: ScheduleChooser
    /// The jobs the run ran, when traced.
    var records: [JobRecord] = []
  }

  func run() async -> Int32 {
    guard plugin.scheduling == .deterministic, let runtime = DeterministicRuntime.current else {
      output.error(
        "error: explore needs an app on the deterministic runtime: give its plug-in "
          + "`scheduling: .deterministic` and start it with `Simulator.start` "
          + "(docs/simulate-your-app.md)")
      return 2
    }
    var report = ExploreOutcomes(flow: arguments.flow)
    let started = RealClock.monotonicNanoseconds  // real: the app's clocks are virtual
    switch arguments.strategy {
    case .random, .pct:
      report.shard = arguments.shard?.description
      if arguments.strategy == .pct {
        // PCT's change points fall among the decisions of arrival order's run.
        let chooser = ScheduleChooser(seed: nil, script: [], recording: true)
        guard let run = await runOnce(chooser, runtime) else { return 2 }
        let pct = PCTPolicy.Parameters(
          depth: arguments.depth, steps: run.chooser.decisions.count)
        report.pct = pct
        report.strategy = "pct (depth \(pct.depth), \(pct.steps) steps)"
      }
      for schedule in 0..<UInt64(arguments.schedules) {
        if let shard = arguments.shard, schedule % UInt64(shard.count) != UInt64(shard.index - 1) {
          continue
        }
        guard let run = await runOnce(report.chooser(for: schedule), runtime) else { return 2 }
        report.add(schedule: schedule, failures: run.failures, final: run.final)
      }
    case .exhaustive:
      report.strategy = "exhaustive (≤ \(arguments.preemptions) preemptions)"
      var prefix: [ScheduleChooser.Decision] = []
      report.covered = false
      while report.schedules < arguments.schedules {
        guard let run = await runOnce(ScheduleChooser(goingOnAfter: prefix), runtime) else {
          return 2
        }
        let decisions = run.chooser.decisions
        report.add(
          schedule: UInt64(report.schedules), failures: run.failures, final: run.final,
          replay: ScheduleString.encode(decisions))
        guard let next = ExhaustiveWalk.nextPrefix(after: decisions, bound: arguments.preemptions)
        else {
          report.covered = true
          break
        }
        prefix = next
      }
    }
    report.seconds = ExploreCommand.seconds(RealClock.since(started))
    if let index = report.outcomes.firstIndex(where: { !$0.passed }) {
      guard let minimal = await shrink(report.outcomes[index], of: report, runtime) else {
        return 2
      }
      report.outcomes[index].minimal = minimal
    }
    runtime.reset(scheduleSeed: nil)
    output.standard(
      arguments.json ? report.json() : report.render(program: program, verbose: arguments.verbose))
    return report.failingCount > 0 ? 1 : 0
  }

  /// Runs the flow once under `chooser`; `nil` when the flow could not be prepared (the
  /// error was printed).
  func runOnce(
    _ chooser: ScheduleChooser, _ runtime: DeterministicRuntime, traced: Bool = false
  ) async -> Run? {
    runtime.reset(chooser: chooser)
    guard
      let (flow, app) = await Simulator.prepare(
        arguments.flow, seed: arguments.seed, plugin: plugin, output: output,
        defines: arguments.defines, launchOptions: arguments.launchOptions)
    else { return nil }
    if traced { runtime.startJobTrace() }
    let result = await Simulator.execute(
      flow, on: app, plugin: plugin, explain: false, deterministic: false, trace: nil,
      progress: false, output: output)
    var final: [String: String] = [:]
    for path in app.observablePathNames {
      final[path] = app.observable(named: path).map { "\($0.read())" }
    }
    let used = runtime.chooser
    let records = traced ? runtime.takeJobTrace() : []
    await Simulator.shutDown(app)
    // Task ids count up over the whole process: a stall's message names the same tasks with
    // other ids in every run, which must not make every run an outcome of its own.
    // The probe keeps tasks left waiting by earlier runs of this process too: the names are
    // listed once each, sorted.
    let failures = result.failures.map { Self.withoutTaskIDs($0.message) }
    return Run(failures: failures, final: final, chooser: used, records: records)
  }

  /// `message` with the waiting tasks' ids dropped and their names listed once, sorted.
  static func withoutTaskIDs(_ message: String) -> String {
    let clause = "tasks last seen suspending on a continuation that nothing resumed: "
    guard let start = message.range(of: clause) else { return message }
    let rest = message[start.upperBound...]
    let end = rest.range(of: "; ")?.lowerBound ?? rest.endIndex
    let names = Set(
      rest[..<end].replacing(/\ \(task [0-9]+\)/, with: "").components(separatedBy: ", "))
    return message[..<start.upperBound] + names.sorted().joined(separator: ", ") + rest[end...]
  }

  static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
