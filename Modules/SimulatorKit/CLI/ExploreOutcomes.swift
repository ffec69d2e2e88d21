import Foundation

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

  /// A failing schedule shrunk: its string and how far it deviates from arrival order.
  struct Minimal: Sendable, Equatable, Codable {
    var schedule: String
    var deviations: Int
    /// The deviations of the schedule it was shrunk from.
    var from: Int
    /// Runs the shrinking took.
    var runs: Int
  }

  var flow: String
  /// The strategy, as the header names it (`random`, `exhaustive (≤ 2 preemptions)`).
  var strategy = "random"
  /// For the exhaustive strategy: whether every schedule within the bound ran.
  var covered: Bool?
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

  /// What `--schedule-seed` takes to replay `schedule`.
  static func replayArgument(_ schedule: UInt64) -> String {
    schedule == 0 ? "arrival" : String(schedule)
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
    var lines = [
      "explore · \(flow) · \(strategy) · \(schedules) schedules (\(rate)/s)\(coverage) · "
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
        ?? "--schedule-seed \(Self.replayArgument(first))"
      lines.append("  replay: \(program) run \(flow) \(replay)")
      if let minimal = outcome.minimal {
        lines.append(
          "  minimal: \(minimal.deviations) deviation\(minimal.deviations == 1 ? "" : "s") from "
            + "arrival order (shrunk from \(minimal.from) in \(minimal.runs) runs): "
            + "\(program) run \(flow) --schedule \(minimal.schedule)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The report as JSON, for CI: every outcome with its schedules, failures and final values.
  func json() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(JSONReport(self)) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  /// The JSON shape: the outcomes plus the figures a reader wants without computing them.
  private struct JSONReport: Encodable {
    var flow: String
    var strategy: String
    var covered: Bool?
    var schedules: Int
    var schedulesPerSecond: Double
    var failing: Int
    var differingPaths: [String]
    var outcomes: [Outcome]

    init(_ report: ExploreOutcomes) {
      flow = report.flow
      strategy = report.strategy
      covered = report.covered
      schedules = report.schedules
      schedulesPerSecond = (report.schedulesPerSecond * 10).rounded() / 10
      failing = report.failingCount
      differingPaths = report.differingPaths
      outcomes = report.ordered
    }
  }
}
