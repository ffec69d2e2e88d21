import Foundation
import HealthSimulator
import SimulatorKit
import TestProcesses
import Testing
import WeftCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `weft-sim --state-dir DIR` keeps the app's database and the simulated backend between
/// processes: a run SIGKILLed mid-flow leaves the session and the outbox exactly as
/// committed, and a second run on the same folder delivers the queued writes exactly once.
/// Runs the real debug `weft-sim` binary as a child process.
///
/// Kept serialized, and is not about WeftCore's engine state (that lives in the child
/// process): one test SIGKILLs a child mid-flow by timing, which a parallel run competing for
/// the CPU would skew.
@Suite("weft-sim --state-dir", .serialized)
struct StateDirectoryTests {
  /// The package root (this file is Tests/HealthSimulatorTests/StateDirectoryTests.swift).
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let binary = root.appendingPathComponent(".build/debug/weft-sim")

  /// Queues three writes offline, then runs long enough (minutes in a debug build) for the
  /// test to kill it: close to the flow language's 1,000,000-step cap, since the
  /// deterministic runtime runs a step without thread hops (400,000 steps ended in about
  /// 80 s, before a test process slowed by the thread sanitizer had looked).
  static let first = """
    seed 7
    login email=ada@example.com password=correct-horse
    wait auth.state == authenticated timeout=5s
    network offline
    repeat 3 {
      form.set metric=steps value=$(1000 * $i) date=today
      form.submit
    }
    expect outbox.count == 3
    repeat 499990 { tab dashboard ; tab insights }
    """

  /// Continues in the same folder: the session is restored, the outbox drained on launch,
  /// and the backend holds each queued write once.
  static func second(records: Int) -> String {
    """
    seed 7
    expect auth.state == authenticated
    wait outbox.count == 0 timeout=60s
    expect backend.records == \(records)
    expect backend.duplicates == 0
    expect backend.writes == 3
    """
  }

  @Test func aRunKilledMidFlowContinuesInTheNextProcess() async throws {
    guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
      Issue.record("\(Self.binary.path) is missing: run `swift build --build-tests` first")
      return
    }
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-sim-state-\(UUID().uuidString)")
    let state = base.appendingPathComponent("state")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    // try?: the test's own scratch folder; failing to delete it changes no result.
    defer { try? FileManager.default.removeItem(at: base) }
    let firstFlow = base.appendingPathComponent("first.flow")
    try Self.first.write(to: firstFlow, atomically: true, encoding: .utf8)

    let process = Process()
    process.executableURL = Self.binary
    process.arguments = [firstFlow.path, "--state-dir", state.path, "--no-progress"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Killed once three writes sit in the outbox (the database is the witness: WAL commits
    // are durable, so what the shell reads is what the process committed).
    var queued = 0
    for _ in 0..<3_000 where queued < 3 && process.isRunning {
      try await Task.sleep(for: .milliseconds(20))
      queued = await Self.count("SELECT count(*) FROM weft_outbox", in: state)
    }
    #expect(process.isRunning, "the first run ended before it was killed")
    kill(process.processIdentifier, SIGKILL)
    while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(await Self.count("SELECT count(*) FROM weft_outbox", in: state) == 3)
    let backend = try Data(contentsOf: state.appendingPathComponent("backend.json"))
    let saved = try JSONSerialization.jsonObject(with: backend) as? [String: Any]
    let metrics = saved?["metrics"] as? [String: [Any]]
    let seeded = metrics?.values.reduce(0) { $0 + $1.count } ?? -1
    #expect(seeded > 0)
    #expect(saved?["appliedWrites"] as? Int == 0, "nothing reached the backend while offline")

    let secondFlow = base.appendingPathComponent("second.flow")
    try Self.second(records: seeded + 3).write(to: secondFlow, atomically: true, encoding: .utf8)
    let output = Output()
    let code = await Simulator.main(
      [secondFlow.path, "--state-dir", state.path, "--no-progress"],
      plugin: HealthSimulation.plugin, output: output.sink)
    #expect(code == 0, "\(output.text)")
    #expect(await Self.count("SELECT count(*) FROM weft_outbox", in: state) == 0)
  }

  @Test func aStateFolderThatIsNotOneIsRefusedWithTheReason() async throws {
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-sim-state-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    // try?: the test's own scratch folder; failing to delete it changes no result.
    defer { try? FileManager.default.removeItem(at: base) }
    try "not a number".write(
      to: base.appendingPathComponent("launches"), atomically: true, encoding: .utf8)
    let flow = base.appendingPathComponent("a.flow")
    try "log \"hi\"".write(to: flow, atomically: true, encoding: .utf8)
    let output = Output()
    let code = await Simulator.main(
      [flow.path, "--state-dir", base.path], plugin: HealthSimulation.plugin, output: output.sink)
    #expect(code == 2)
    #expect(output.text.contains("does not hold a launch count"))
  }

  /// The first column of the first row of `query` on the folder's database, or -1. The
  /// `sqlite3` shell is awaited (TestProcesses), never blocked on.
  static func count(_ query: String, in folder: URL) async -> Int {
    let database = folder.appendingPathComponent("app.sqlite")
    guard FileManager.default.fileExists(atPath: database.path),
      let result = try? await ChildProcess.run(  // try?: a missing shell reads as -1.
        program: "sqlite3", ["-readonly", database.path, query])
    else { return -1 }
    return Int(result.standard.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }
}

/// Collects what `Simulator.main` prints.
final class Output: Sendable {
  private let lines = Locked<[String]>([])
  var text: String { lines.withLock { $0.joined(separator: "\n") } }
  var sink: Simulator.Output {
    Simulator.Output(
      standard: { [lines] line in lines.withLock { $0.append(line) } },
      error: { [lines] line in lines.withLock { $0.append(line) } }, isTerminal: false)
  }
}
