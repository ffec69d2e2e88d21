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
    #expect(again.standard == explored.standard)
  }

  /// The health app runs on the runtime too: a flow without a race gives one outcome over
  /// every schedule.
  @Test func aFlowWithoutARaceHasOneOutcome() async throws {
    let weftSim = Self.binary.deletingLastPathComponent().appendingPathComponent("weft-sim")
    let result = try await ChildProcess.run(
      weftSim,
      ["explore", Self.root.appendingPathComponent("Flows/auth.flow").path, "--schedules", "5"])
    #expect(result.status == 0, "\(result.standard)\(result.error)")
    #expect(result.standard.contains("5 schedules · 1 distinct outcome · every schedule passed"))
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
