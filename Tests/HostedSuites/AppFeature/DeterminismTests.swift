import AppFeature
import HealthHarness
import Testing
import WeftCore
import WeftRuntime

@MainActor
@Suite("Determinism")
struct DeterminismTests {
  /// Runs a flow that exercises every moving part and records, after each step, every path's
  /// value, the virtual time, the server's counters, the SQL statements and the commits of
  /// every cell reporting to the app's monitor — counts, not just states, must repeat.
  static func trace(seed: UInt64) async throws -> [String] {
    // Each trace starts where weft-sim starts a run: virtual time zero, no timer parked
    // (the runtime is the process's, shared by every test before this one).
    DeterministicRuntime.current?.reset(scheduleSeed: nil)
    let monitor = PerformanceMonitor(enabled: true)
    let app = try await SimulatedHealthApp(seed: seed, monitor: monitor)
    let origin = RuntimeClock().now
    var trace: [String] = []
    func record(_ step: String) {
      let values = app.paths.keys.sorted().map { "\($0)=\(app.paths[$0]!.read())" }
      let server = app.simulation.server
      let commits = monitor.allMetrics().map { "\($0.name):\($0.commits)" }
      trace.append(
        "\(step) t=\(app.elapsed(since: origin)) applied=\(server.appliedWrites) "
          + "replayed=\(server.replayedWrites) requests=\(app.simulation.network.requestCount) "
          + "statements=\(app.databaseStatistics.statements) commits=\(commits) "
          + values.joined(separator: " "))
    }
    app.setLatency(.milliseconds(30), jitter: .milliseconds(50))
    try await app.login(email: "ada@example.com", password: "correct-horse")
    record("login")
    try await app.openDashboard(range: .week)
    record("dashboard")
    try await app.setNetwork(online: false)
    for value in [100, 200, 300, 400] {
      await app.setHealthForm(metric: .steps, value: String(value))
      try await app.submitHealthForm()
      record("submit \(value)")
    }
    app.injectFault(NetworkFaultSpec(.timeout, rate: 0.4, path: "/metrics/{id}"))
    app.injectFault(NetworkFaultSpec(.serverError(status: 503), rate: 0.4))
    try await app.setNetwork(online: true)
    record("online")
    app.clearFaults()
    try await app.pushInsight(title: "Hello")
    record("push")
    try await app.realtimeDrop()
    record("drop")
    try await app.refreshDashboard()
    record("refresh")
    try await app.logout()
    record("logout")
    await app.shutDown()
    return trace
  }

  @Test func theSameSeedGivesTheSameTrace() async throws {
    let first = try await Self.trace(seed: 42)
    let second = try await Self.trace(seed: 42)
    #expect(first.count == second.count)
    for (a, b) in zip(first, second) { #expect(a == b) }
  }
}
