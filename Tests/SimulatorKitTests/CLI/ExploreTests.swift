import Foundation
import HealthSimulator
import SimulatorKit
import Synchronization
import TestProcesses
import Testing

/// `explore` on the race app (`race-sim`, built next to this test bundle): both planted bugs
/// pass in arrival order and are found within 100 schedules, each with a schedule seed that
/// replays it.
@Suite("weft-sim explore: planted races on the deterministic runtime")
struct ExploreTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static var binary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("race-sim")
  }

  func run(_ arguments: [String]) async throws -> ChildProcess.Result {
    try await ChildProcess.run(Self.binary, arguments)
  }

  func flow(_ name: String) -> String {
    Self.root.appendingPathComponent("Tests/RaceSimulator/Flows/\(name).flow").path
  }

  /// The first failing outcome's schedule seed in `explore`'s output.
  func failingSeed(in text: String) -> String? {
    guard let line = text.split(separator: "\n").first(where: { $0.contains("FAILED") }),
      let range = line.range(of: "schedule seed ")
    else { return nil }
    return String(line[range.upperBound...].prefix { $0.isNumber })
  }

  @Test(arguments: [
    ("lost-update", "count is 1, expected == 2"),
    ("stale-refresh", "feed.shown is 1, expected == 2"),
    ("double-submit", "orders.created is 2, expected == 1"),
    ("handshake", "timed out waiting for handshakes.done == 2"),
  ])
  func arrivalOrderPassesAndExplorationFindsTheBug(name: String, symptom: String) async throws {
    let plain = try await run([flow(name), "--no-progress"])
    #expect(plain.status == 0, "\(plain.standard)\(plain.error)")

    let explored = try await run(["explore", flow(name), "--schedules", "100"])
    #expect(explored.status == 1, "\(explored.standard)\(explored.error)")
    #expect(explored.standard.contains("2 distinct outcomes"))
    #expect(explored.standard.contains(symptom))
    let seed = try #require(failingSeed(in: explored.standard), "\(explored.standard)")

    let replay = try await run([flow(name), "--schedule-seed", seed, "--no-progress"])
    #expect(replay.status == 1)
    #expect(replay.standard.contains(symptom))
    let again = try await run(["explore", flow(name), "--schedules", "100"])
    #expect(Self.withoutRate(again.standard) == Self.withoutRate(explored.standard))
  }

  /// The header's schedules-per-second figure, the one part of a report that is real time.
  static func withoutRate(_ text: String) -> String {
    text.replacing(/\([0-9.]+\/s\)/, with: "(rate)")
  }

  /// `final:` shows only the paths that differ between outcomes; `--verbose` shows all;
  /// schedule 0 is arrival order and replays with `--schedule-seed arrival` (or 0).
  @Test func outcomesShowWhatDiffersAndArrivalOrderIsScheduleZero() async throws {
    let explored = try await run(["explore", flow("lost-update"), "--schedules", "60"])
    let finals = explored.standard.split(separator: "\n").filter { $0.contains("final:") }
    #expect(finals == ["  final: count=1", "  final: count=2"], "\(explored.standard)")
    #expect(explored.standard.contains("(first: schedule 0, arrival order)"))
    #expect(explored.standard.contains("--schedule-seed arrival"))

    let verbose = try await run(["explore", flow("lost-update"), "--schedules", "60", "--verbose"])
    #expect(
      verbose.standard.contains(
        "  final: count=2 feed.requested=0 feed.shown=0 handshakes.done=0 observers.agree=true "
          + "observers.first= observers.second= orders.created=0 session.signedIn=false "
          + "transfers.done=0"),
      "\(verbose.standard)")

    for arrival in ["arrival", "0"] {
      let replay = try await run([flow("lost-update"), "--schedule-seed", arrival, "--no-progress"])
      #expect(replay.status == 0, "\(replay.standard)\(replay.error)")
    }
    let bad = try await run([flow("lost-update"), "--schedule-seed", "soon"])
    #expect(bad.status == 2)
    #expect(
      bad.error.contains(
        "--schedule-seed needs a whole number, 'arrival' or pct:DEPTH:STEPS:SEED, got 'soon'"))
  }

  /// The string after `--schedule ` on the first line that holds `marker`.
  static func scheduleString(after marker: String, in text: String) -> String? {
    guard let line = text.split(separator: "\n").first(where: { $0.contains(marker) }),
      let range = line.range(of: "--schedule ", options: .backwards)
    else { return nil }
    return String(line[range.upperBound...])
  }

  /// `--strategy exhaustive`: every schedule within the bound, the space's size, whether it
  /// was covered; the failing outcome's schedule string and its shrunk form replay it. (The
  /// double submit, not stale-refresh: that one's answers sleep on a real-clock deadline, which
  /// a heavily loaded machine was seen to map differently — 42 schedules for 43, a replay
  /// one decision short.)
  @Test func exhaustiveCoversTheSpaceAndItsSchedulesReplay() async throws {
    let explored = try await run([
      "explore", flow("double-submit"), "--strategy", "exhaustive", "--preemptions", "2",
      "--schedules", "1000",
    ])
    #expect(explored.status == 1, "\(explored.standard)\(explored.error)")
    #expect(explored.standard.contains("exhaustive (≤ 2 preemptions) · 120 schedules ("))
    #expect(explored.standard.contains("space covered · 2 distinct outcomes · 1 failing"))
    for marker in ["  replay:", "  minimal:"] {
      let schedule = try #require(
        Self.scheduleString(after: marker, in: explored.standard), "\(explored.standard)")
      let replay = try await run([flow("double-submit"), "--schedule", schedule, "--no-progress"])
      #expect(replay.status == 1, "\(marker) \(schedule)")
      #expect(replay.standard.contains("orders.created is 2, expected == 1"))
      #expect(replay.error.isEmpty, "\(replay.error)")
    }
    // With no preemption each task runs as far as it can before the next starts: one schedule,
    // which passes; one preemption (a switch in the middle of the first submit) finds it.
    let none = try await run([
      "explore", flow("double-submit"), "--strategy", "exhaustive", "--preemptions", "0",
    ])
    #expect(none.status == 0, "\(none.standard)")
    #expect(none.standard.contains("1 schedules (") && none.standard.contains("space covered"))
    let one = try await run([
      "explore", flow("double-submit"), "--strategy", "exhaustive", "--preemptions", "1",
    ])
    #expect(one.status == 1, "\(one.standard)")
    #expect(one.standard.contains("16 schedules (") && one.standard.contains("space covered"))
    let capped = try await run([
      "explore", flow("double-submit"), "--strategy", "exhaustive", "--schedules", "10",
    ])
    #expect(capped.standard.contains("10 schedules ("))
    #expect(capped.standard.contains("space not covered (stopped at --schedules)"))
  }

  /// A random schedule's failure is shrunk; the shrunk schedule fails the same way.
  @Test func aFailingRandomScheduleIsShrunkAndReplays() async throws {
    let explored = try await run(["explore", flow("lost-update"), "--schedules", "60"])
    let minimal = try #require(
      Self.scheduleString(after: "  minimal:", in: explored.standard), "\(explored.standard)")
    let replay = try await run([flow("lost-update"), "--schedule", minimal, "--no-progress"])
    #expect(replay.status == 1)
    #expect(replay.standard.contains("count is 1, expected == 2"))
  }

  /// A 20,000-decision schedule string loads; recorded for another app, it replays as far as
  /// it matches, says where it stopped, and goes on seeded.
  @Test func aLongStaleScheduleLoadsAndSaysWhereItStoppedMatching() async throws {
    let deviations = stride(from: 0, to: 20_000, by: 2).map { "\($0)=1/2" }
    let schedule = "s1:20000:" + deviations.joined(separator: ",")
    let replay = try await run([flow("lost-update"), "--schedule", schedule, "--no-progress"])
    #expect(replay.status == 0 || replay.status == 1, "\(replay.error)")
    #expect(
      replay.error.contains("note: the schedule stopped matching at decision 1 of 20000"),
      "\(replay.error)")
    #expect(replay.error.contains("schedule seed 1 picked from there on"))
    let bad = try await run([flow("lost-update"), "--schedule", "s1:3:9=1/2"])
    #expect(bad.status == 2)
    #expect(bad.error.contains("error: --schedule: bad deviation '9=1/2'"))
  }

  /// `explore --shard K/N --json` on each share, then `merge`: the same outcomes (schedules,
  /// failures, final values, shrunk schedule) as one run of every schedule.
  ///
  /// Not stale-refresh: its answers sleep on a real-clock deadline, which a heavily loaded
  /// machine was seen to map differently once in a while (42 exhaustive schedules for 43).
  @Test(arguments: ["lost-update", "double-submit"])
  func shardsMergeToTheSameReportAsOneRun(name: String) async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-explore-shards-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var files: [String] = []
    for shard in 1...3 {
      let result = try await run([
        "explore", flow(name), "--schedules", "60", "--shard", "\(shard)/3", "--json",
      ])
      #expect(result.status == 0 || result.status == 1, "\(result.error)")
      let file = folder.appendingPathComponent("explore-\(shard).json").path
      try result.standard.write(toFile: file, atomically: true, encoding: .utf8)
      files.append(file)
    }
    let one = try await run(["explore", flow(name), "--schedules", "60"])
    let merged = try await run(["merge"] + files.reversed())
    #expect(merged.status == one.status)
    #expect(Self.withoutRate(merged.standard) == Self.withoutRate(one.standard))
    #expect(merged.standard.contains("60 schedules ("))

    let twice = try await run(["merge", files[0], files[0]])
    #expect(twice.status == 2)
    #expect(twice.error.contains("shard 1/3 of '"))
    let exhaustive = try await run([
      "explore", flow(name), "--strategy", "exhaustive", "--shard", "1/2",
    ])
    #expect(exhaustive.status == 2)
    #expect(exhaustive.error.contains("the exhaustive walk runs whole"))
  }

  /// Two tasks waiting for each other: the stall names both, by the flow command that
  /// started them, once each; the race-free controls pass every schedule, exhaustive too.
  @Test func aMutualWaitNamesBothTasksAndTheControlsPassEverySchedule() async throws {
    let stalled = try await run(["explore", flow("handshake"), "--schedules", "50"])
    #expect(stalled.status == 1)
    #expect(
      stalled.standard.contains(
        "tasks last seen suspending on a continuation that nothing resumed: "
          + "'handshake.first (line 8)', 'handshake.second (line 8)'; now 0)"),
      "\(stalled.standard)")
    for strategy in ["random", "exhaustive"] {
      let controls = try await run([
        "explore", flow("controls"), "--strategy", strategy, "--schedules", "300",
      ])
      #expect(controls.status == 0, "\(controls.standard)")
      #expect(controls.standard.contains("1 distinct outcome · every schedule passed"))
    }
  }

  /// `--json`: the same outcomes, machine-readable.
  @Test func jsonGivesTheOutcomesToCI() async throws {
    let result = try await run(["explore", flow("lost-update"), "--schedules", "60", "--json"])
    #expect(result.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standard.utf8)) as? [String: Any])
    #expect(object["schedules"] as? Int == 60)
    #expect(object["failing"] as? Int == 1)
    #expect(object["differingPaths"] as? [String] == ["count"])
    let outcomes = try #require(object["outcomes"] as? [[String: Any]])
    #expect(outcomes.count == 2)
    let failing = try #require(outcomes.first)
    #expect((failing["final"] as? [String: String])?["count"] == "1")
    #expect((failing["failures"] as? [String])?.first?.contains("count is 1") == true)
    let total = outcomes.reduce(0) { $0 + (($1["schedules"] as? [Int])?.count ?? 0) }
    #expect(total == 60)
    #expect(((outcomes.last?["schedules"] as? [Int])?.first) == 0)
  }

  /// The health app runs on the runtime too: a flow without a race gives one outcome over
  /// every schedule.
  @Test func aFlowWithoutARaceHasOneOutcome() async throws {
    let weftSim = Self.binary.deletingLastPathComponent().appendingPathComponent("weft-sim")
    let result = try await ChildProcess.run(
      weftSim,
      ["explore", Self.root.appendingPathComponent("Flows/auth.flow").path, "--schedules", "5"])
    #expect(result.status == 0, "\(result.standard)\(result.error)")
    #expect(result.standard.contains("5 schedules ("))
    #expect(result.standard.contains("/s) · 1 distinct outcome · every schedule passed"))
    // One outcome: no path differs, so `final:` lists none unless asked.
    #expect(result.standard.contains("final: the same in every schedule ("), "\(result.standard)")
  }

  /// In a process without the runtime (this test process), explore says what it needs.
  @Test @MainActor func exploreRefusesWithoutTheRuntime() async {
    let errors = Lines()
    let code = await Simulator.main(
      ["explore", Self.root.appendingPathComponent("Flows/auth.flow").path],
      plugin: HealthSimulation.plugin,
      output: Simulator.Output(standard: { _ in }, error: errors.append, isTerminal: false))
    #expect(code == 2)
    #expect(errors.text.contains("explore needs an app on the deterministic runtime"))
  }
}

/// Lines a test collects from the simulator's output.
final class Lines: Sendable {
  private let storage = Mutex<[String]>([])
  func append(_ line: String) { storage.withLock { $0.append(line) } }
  var text: String { storage.withLock { $0.joined(separator: "\n") } }
}
