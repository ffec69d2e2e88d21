import Foundation
import HealthSimulator
import SimulatorFlow
import SimulatorKit
import Synchronization
import TestProcesses
import Testing

/// The same feature code under both configurations of the simulated app — on threads in this
/// process (the driver waiting until nothing commits and no sleep is in progress), and
/// under weft-sim on the deterministic runtime (`RuntimeClock`, the dashboard observing the
/// database as it does live, observation passes paced) — ends a flow with what its views see
/// the same.
@Suite("One configuration of the health app")
@MainActor
struct OneConfigurationTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let flow = "Flows/login-to-sync.flow"
  /// What the flow's views and expectations look at.
  static let seen = [
    "auth.state", "app.isAuthenticated", "outbox.count", "sync.status",
    "dashboard.summary.totalSteps", "dashboard.summary.averageHeartRate", "dashboard.state",
    "form.result",
  ]

  /// The trace line of the flow's last expectation before `logout` (line 27), where both
  /// runs have drained the network: after `logout` the runtime leaves the server's revocation
  /// request pending as a timer (steps leave timers pending) while the threaded settler ran
  /// it to the end, so the two stop at different moments of the same work.
  static func settledLine(in lines: [String]) -> String? {
    lines.first { $0.contains("\(flow):27:") }
  }

  /// `path=value` pairs of a trace line (`N file:line:col command | a=1 b=x …`).
  static func values(ofTraceLine line: String) -> [String: String] {
    guard let bar = line.range(of: " | ") else { return [:] }
    var values: [String: String] = [:]
    for pair in line[bar.upperBound...].split(separator: " ") {
      guard let equals = pair.firstIndex(of: "=") else { continue }
      values[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
    }
    return values
  }

  @Test func aFlowEndsWithTheSameValuesOnThreadsAndOnTheRuntime() async throws {
    // In this process, on threads.
    let app = try await HealthSimulation.make(seed: 42)
    let source = try String(
      contentsOf: Self.root.appendingPathComponent(Self.flow), encoding: .utf8)
    let flow = try Flow.parse(
      source: source, file: Self.flow, knownPaths: Set(app.observablePathNames),
      options: Flow.ParseOptions(now: app.now, commands: HealthSimulation.plugin.catalog))
    let lines = TraceLines()
    let runner = FlowRunner(
      app: app, plugin: HealthSimulation.plugin, options: .init(trace: { lines.append($0) }))
    let report = await runner.run(flow)
    runner.tearDown()
    await app.shutDown()
    #expect(report.failures.isEmpty, "\(report.failures)")
    let threaded = Self.values(ofTraceLine: try #require(Self.settledLine(in: lines.all)))

    // Under weft-sim, on the deterministic runtime.
    let trace = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-one-configuration-\(UUID().uuidString).trace")
    defer { try? FileManager.default.removeItem(at: trace) }  // try?: a leftover temp file
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("weft-sim")
    let result = try await ChildProcess.run(
      binary, [Self.flow, "--trace", trace.path, "--no-progress"], in: Self.root)
    #expect(result.status == 0, "\(result.standard)\(result.error)")
    let runtimeLines = try String(contentsOf: trace, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let deterministic = Self.values(ofTraceLine: try #require(Self.settledLine(in: runtimeLines)))

    for path in Self.seen {
      #expect(threaded[path] != nil, "\(path) missing from the in-process trace")
      #expect(threaded[path] == deterministic[path], "\(path)")
    }
  }
}

/// Trace lines collected from the runner's callback.
final class TraceLines: Sendable {
  private let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}
