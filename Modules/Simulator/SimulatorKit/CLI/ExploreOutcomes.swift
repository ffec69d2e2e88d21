import Foundation
import WeftRuntime

/// What `explore` found: the distinct outcomes of a flow's schedules, and how to show them.
///
/// A schedule is numbered: 0 is arrival order (what `run` uses), N > 0 the seeded draw of
/// schedule seed N. Two runs have the same outcome when they failed the same way and ended
/// with the same value on every path.
///
/// - Note: Isolation: a `Sendable` value.
struct ExploreOutcomes: Sendable, Equatable, Codable {
  /// One distinct outcome and the schedules that gave it.
  struct Outcome: Sendable, Equatable, Codable {
    /// The failure messages, in step order; empty when the schedule passed.
    var failures: [String]
    /// The final value of every observable path, by path.
    var final: [String: String]
    /// The schedules that gave it, in the order they ran.
    var schedules: [UInt64] = []
    /// The first schedule's string, when schedules are not seeds (the exhaustive strategy).
    var replay: String?
    /// The failing schedule shrunk to the fewest deviations from arrival order found.
    var minimal: Minimal?

    var passed: Bool { failures.isEmpty }
  }

  /// A failing schedule shrunk: its string, its preemptions and how far it deviates from
  /// arrival order.
  struct Minimal: Sendable, Equatable, Codable {
    var schedule: String
    /// Its choices other than arrival order.
    var deviations: Int
    /// The preemptions of the schedule it was shrunk from.
    var from: Int
    /// Runs the shrinking took.
    var runs: Int
    /// Its choices other than going on with what ran last (`ExhaustiveWalk`).
    var preemptions: Int
    /// The jobs around its deviations (`ExploreTrace`), as printed.
    var trace: [String] = []
  }

  var flow: String
  /// The strategy, as the header names it (`random`, `exhaustive (≤ 2 preemptions)`).
  var strategy = "random"
  /// For the PCT strategy: the parameters every seed's schedule is drawn with.
  var pct: PCTPolicy.Parameters?
  /// For the exhaustive strategy: whether every schedule within the bound ran.
  var covered: Bool?
  /// `K/N` when this is one shard's share of the schedules.
  var shard: String?
  /// How many schedules ran.
  var schedules = 0
  /// Real time the runs took, in seconds.
  var seconds = 0.0
  /// The outcomes, in the order they were first seen.
  var outcomes: [Outcome] = []

  /// Adds one schedule's result.
  ///
  /// - Complexity: O(o·p), o = outcomes so far, p = paths.
  mutating func add(
    schedule: UInt64, failures: [String], final: [String: String], replay: String? = nil
  ) {
    schedules += 1
    if let index = outcomes.firstIndex(where: { $0.failures == failures && $0.final == final }) {
      outcomes[index].schedules.append(schedule)
    } else {
      outcomes.append(
        Outcome(failures: failures, final: final, schedules: [schedule], replay: replay))
    }
  }

  /// Failing outcomes first, then passing ones, each in first-seen order.
  var ordered: [Outcome] { outcomes.filter { !$0.passed } + outcomes.filter(\.passed) }

  var failingCount: Int { outcomes.count { !$0.passed } }

  /// Schedules run per second of real time.
  var schedulesPerSecond: Double { seconds > 0 ? Double(schedules) / seconds : 0 }

  /// The paths whose final value is not the same in every outcome, sorted.
  var differingPaths: [String] {
    let paths = Set(outcomes.flatMap(\.final.keys))
    return paths.filter { path in Set(outcomes.map { $0.final[path] }).count > 1 }.sorted()
  }

  /// `schedule seed 9`, or `schedule 0, arrival order`.
  static func name(of schedule: UInt64) -> String {
    schedule == 0 ? "schedule 0, arrival order" : "schedule seed \(schedule)"
  }

  /// `1 preemption`, `3 preemptions`.
  static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// What `--schedule-seed` takes to replay `schedule`.
  func replayArgument(_ schedule: UInt64) -> String {
    if schedule == 0 { return "arrival" }
    return pct.map { $0.argument(seed: schedule) } ?? String(schedule)
  }

  /// The chooser of numbered schedule `schedule`: arrival order for 0, else its seed's
  /// draw — or PCT's, with `pct`.
  func chooser(for schedule: UInt64, recording: Bool = false) -> ScheduleChooser {
    guard schedule != 0 else { return ScheduleChooser(seed: nil, script: [], recording: recording) }
    if let pct { return ScheduleChooser(pct: pct, seed: schedule, recording: recording) }
    return ScheduleChooser(seed: schedule, script: [], recording: recording)
  }

  /// The summary: a header, then one block per outcome, failing outcomes first. `final:`
  /// lists the paths whose values differ between outcomes, or every path with `verbose`.
  func render(program: String, verbose: Bool) -> String {
    let rate =
      schedulesPerSecond >= 100
      ? "\(Int(schedulesPerSecond.rounded()))"
      : String(
        format: "%.1f", schedulesPerSecond)
    let coverage: String =
      switch covered {
      case true?: " · space covered"
      case false?: " · space not covered (stopped at --schedules)"
      case nil: ""
      }
    let part = shard.map { " · shard \($0)" } ?? ""
    var lines = [
      "explore · \(flow) · \(strategy)\(part) · \(schedules) schedules (\(rate)/s)\(coverage) · "
        + "\(outcomes.count) distinct outcome\(outcomes.count == 1 ? "" : "s")"
        + (failingCount == 0 ? " · every schedule passed" : " · \(failingCount) failing")
    ]
    let differing = differingPaths
    for (number, outcome) in ordered.enumerated() {
      let first = outcome.schedules[0]
      let firstName = outcome.replay == nil ? Self.name(of: first) : "schedule \(first)"
      lines.append("")
      lines.append(
        "outcome \(number + 1): \(outcome.passed ? "passed" : "FAILED") in "
          + "\(outcome.schedules.count) of \(schedules) schedules (first: \(firstName))")
      for failure in outcome.failures {
        lines.append(contentsOf: failure.split(separator: "\n").map { "  \($0)" })
      }
      let paths = verbose ? outcome.final.keys.sorted() : differing
      if paths.isEmpty {
        lines.append(
          "  final: the same in every schedule (\(outcome.final.count) paths; --verbose lists them)"
        )
      } else {
        lines.append(
          "  final: "
            + paths.map { "\($0)=\(outcome.final[$0] ?? "(none)")" }.joined(separator: " "))
      }
      let replay =
        outcome.replay.map { "--schedule \($0)" }
        ?? "--schedule-seed \(replayArgument(first))"
      lines.append("  replay: \(program) run \(flow) \(replay)")
      if let minimal = outcome.minimal {
        lines.append(
          "  minimal: \(Self.count(minimal.preemptions, "preemption")) (shrunk from "
            + "\(minimal.from) in \(minimal.runs) runs), \(Self.count(minimal.deviations, "deviation")) "
            + "from arrival order: \(program) run \(flow) --schedule \(minimal.schedule)")
        lines.append(contentsOf: minimal.trace)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The report as JSON, for CI: every outcome with its schedules, failures and final values.
  func json() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      return String(decoding: try encoder.encode(JSONReport(self)), as: UTF8.self)
    } catch {
      return "{\"error\": \"cannot encode the explore report: \(error)\"}"
    }
  }

  /// Reads a report `json()` wrote; `nil` when `data` is not an explore report.
  static func decode(_ data: Data) -> ExploreOutcomes? {
    let report: JSONReport
    do {
      report = try JSONDecoder().decode(JSONReport.self, from: data)
    } catch {
      return nil  // not an explore report: nil by contract, the caller tries the other kinds
    }
    guard report.kind == JSONReport.kind else { return nil }
    var outcomes = ExploreOutcomes(flow: report.flow)
    outcomes.strategy = report.strategy
    outcomes.pct = report.pct
    outcomes.covered = report.covered
    outcomes.shard = report.shard
    outcomes.schedules = report.schedules
    outcomes.seconds = report.seconds
    outcomes.outcomes = report.outcomes
    return outcomes
  }

  /// Joins the reports of `explore --shard K/N` runs of one flow into the report one run of
  /// every schedule gives: outcomes grouped again, each with its schedules in order, listed in
  /// the order one run would first see them; the shrunk schedule of the first failing
  /// outcome is the one from the shard that ran its first schedule (what one run shrinks).
  ///
  /// - Throws: a message when the reports are of different flows or strategies, or a shard
  ///   is given twice.
  /// - Complexity: O(o² + s log s), o = outcomes, s = schedules.
  static func merge(_ parts: [ExploreOutcomes]) throws(MergeProblem) -> ExploreOutcomes {
    guard let first = parts.first else { throw MergeProblem(message: "no reports to merge") }
    var merged = ExploreOutcomes(flow: first.flow)
    merged.strategy = first.strategy
    merged.pct = first.pct
    var shards = Set<String>()
    var minimals:
      [(schedule: UInt64, failures: [String], final: [String: String], ExploreOutcomes.Minimal)] =
        []
    for part in parts {
      guard part.flow == first.flow, part.strategy == first.strategy else {
        throw MergeProblem(
          message: "explore reports of '\(first.flow)' (\(first.strategy)) and '\(part.flow)' "
            + "(\(part.strategy)) do not merge")
      }
      if let shard = part.shard, !shards.insert(shard).inserted {
        throw MergeProblem(message: "shard \(shard) of '\(part.flow)' is given twice")
      }
      merged.seconds += part.seconds
      for outcome in part.outcomes {
        for schedule in outcome.schedules {
          merged.add(schedule: schedule, failures: outcome.failures, final: outcome.final)
        }
        if let minimal = outcome.minimal, let schedule = outcome.schedules.first {
          minimals.append((schedule, outcome.failures, outcome.final, minimal))
        }
      }
    }
    for index in merged.outcomes.indices { merged.outcomes[index].schedules.sort() }
    merged.outcomes.sort { $0.schedules[0] < $1.schedules[0] }
    if let failing = merged.outcomes.firstIndex(where: { !$0.passed }) {
      let outcome = merged.outcomes[failing]
      merged.outcomes[failing].minimal =
        minimals.first {
          $0.schedule == outcome.schedules[0] && $0.failures == outcome.failures
            && $0.final == outcome.final
        }?.3
    }
    return merged
  }

  /// Why explore reports do not merge.
  struct MergeProblem: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }

  /// The JSON shape: the outcomes plus the figures a reader wants without computing them.
  private struct JSONReport: Codable {
    static let kind = "explore"
    var kind = JSONReport.kind
    var flow: String
    var strategy: String
    var pct: PCTPolicy.Parameters?
    var covered: Bool?
    var shard: String?
    var schedules: Int
    var seconds: Double
    var schedulesPerSecond: Double
    var failing: Int
    var differingPaths: [String]
    var outcomes: [Outcome]

    init(_ report: ExploreOutcomes) {
      flow = report.flow
      strategy = report.strategy
      pct = report.pct
      covered = report.covered
      shard = report.shard
      schedules = report.schedules
      seconds = report.seconds
      schedulesPerSecond = (report.schedulesPerSecond * 10).rounded() / 10
      failing = report.failingCount
      differingPaths = report.differingPaths
      outcomes = report.ordered
    }
  }
}
