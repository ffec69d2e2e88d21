import AppFeature
import Foundation
import HealthHarness
import TestProcesses
import Testing
import WeftCore
import WeftNetworking
import WeftSimulation

@MainActor
@Suite("The live configuration's insight feed over a real WebSocket")
struct LiveRealtimeTests {
  /// The fixture's WebSocket server (standard-library python) pushes an insight; the live app (its platform's
  /// WebSocket transport: `POSIXWebSocketTransport` on Linux) stores it and the dashboard,
  /// which follows the database, shows it.
  @Test func aPushedInsightReachesTheDashboard() async throws {
    try await withHealthServer { server in
      let file = TemporaryDatabase()
      defer { file.remove() }
      let app = try await AppRuntime.build(
        .live(
          baseURL: server.baseURL, databasePath: file.path,
          realtimeURL: server.realtimeURL, secrets: InMemorySecureStorage()))
      try await app.login(email: "ada@example.com", password: "correct-horse")
      try await waitUntil("signed in") { app.value("auth.state") == .string("authenticated") }
      try await app.openDashboard(range: .week)
      try await waitUntil("the dashboard shows the stored insight") {
        app.value("dashboard.insights.count") == .int(1)
      }

      try await waitUntil("the realtime connection is connected") {
        app.value("realtime.state") == .string("connected")
      }
      try await waitUntil("the server sees one WebSocket client") {
        try await server.stats()["realtimeClients"] == 1
      }
      let delivered = try await server.pushInsight(
        title: "Pushed over a WebSocket", body: "From the fixture's WebSocket server.")
      #expect(delivered == 1)

      // Two effects of one message, each waited for: the service stores the insight (the
      // dashboard's observation shows it), then counts it on the realtime client. Waiting
      // for the first and asserting the second failed 4 runs in 12.
      try await waitUntil("the pushed insight is on the dashboard") {
        app.value("dashboard.insights.count") == .int(2)
      }
      try await waitUntil("the realtime client counted the pushed insight") {
        app.value("realtime.received") != .int(0)
      }
      #expect(app.value("realtime.received") == .int(1))
      #expect(app.value("realtime.lastInsight") == .string("Pushed over a WebSocket"))
      #expect(
        app.launch.dashboard.state.latestInsights.map(\.title).contains("Pushed over a WebSocket"))
      #expect(app.value("realtime.state") == .string("connected"))
      await app.shutDown()
    }
  }

  #if canImport(FoundationNetworking)
  /// On Linux both `ws://` and `wss://` feeds go over POSIX sockets (`wss://` through the
  /// system OpenSSL); a dial nobody answers is a typed connection error, not a crash.
  @Test func onLinuxWSAndWSSUsePOSIXSockets() async throws {
    let plain = AppDependencies.liveRealtimeTransport(
      url: URL(string: "ws://127.0.0.1:9/realtime")!)
    #expect(plain is POSIXWebSocketTransport)
    let secure = AppDependencies.liveRealtimeTransport(
      url: URL(string: "wss://127.0.0.1:9/realtime")!)
    #expect(secure is POSIXWebSocketTransport)
    await #expect(throws: (any Error).self) { _ = try await secure.connect() }
  }
  #endif
}

extension AppRuntime {
  /// The value at `path` now (`.none` when there is no such path), read through the paths
  /// HealthHarness makes for a launch (a live one here).
  func value(_ path: String) -> ObservedValue { launch.makePaths()[path]?.read() ?? .none }
}

/// Polls `condition` every 20 ms until it holds, failing after a generous `limit` (the wait is
/// for correctness, not speed: a slow machine passes). The limit counts polls, 20 ms each, not
/// wall time: while the whole suite saturates the cooperative pool, a poll can wait seconds
/// for the MainActor, and a wall-clock limit then fails a test that was never given the time.
@MainActor
func waitUntil(
  _ what: String, limit: Duration = .seconds(30),
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: @MainActor () async throws -> Bool
) async throws {
  let interval = Duration.milliseconds(20)
  var waited = Duration.zero
  while try await !condition() {
    waited += interval
    guard waited <= limit else {
      Issue.record("timed out after \(limit) waiting until \(what)", sourceLocation: sourceLocation)
      throw FixtureError(description: "timed out waiting until \(what)")
    }
    try await Task.sleep(for: interval)
  }
}
