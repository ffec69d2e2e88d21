import AppFeature
import AuthFeature
import Foundation
import HealthHarness
import TestProcesses
import Testing
import WeftCore
import WeftSimulation

/// The live configuration: the real clock and network, so an action returns once its work
/// has started (nothing settles it), and each check waits until the value shows.
@MainActor
@Suite("The live configuration against a loopback server")
struct LiveConfigurationTests {
  @Test func signsInLoadsTheDashboardSyncsAndRestoresTheSession() async throws {
    try await withHealthServer { server in
      let file = TemporaryDatabase()
      let secrets = FileSecureStorage(folder: file.path + ".secure-storage")
      defer {
        file.remove()
        try? FileManager.default.removeItem(atPath: secrets.folder)  // try?: may not exist
      }
      let app = try await AppRuntime.build(
        .live(baseURL: server.baseURL, databasePath: file.path, secrets: secrets))
      #expect(app.dependencies.mode == .live)
      func shows(_ path: String, _ value: ObservedValue) async throws {
        try await waitUntil("\(path) is \(value)") { app.value(path) == value }
      }

      try await app.login(email: "ada@example.com", password: "wrong")
      try await shows("auth.error", .string("invalidCredentials"))
      try await app.login(email: "ada@example.com", password: "correct-horse")
      try await shows("auth.state", .string("authenticated"))
      // The token is in the secure store, and in neither the database file nor its WAL
      // (which hold the signed-in user).
      #expect(try await secrets.readString(SessionStore.tokenKey) == HealthServer.token)
      let stored = try [file.path, file.path + "-wal"].map {
        try Data(contentsOf: URL(fileURLWithPath: $0))
      }
      #expect(stored.contains { $0.range(of: Data("ada@example.com".utf8)) != nil })
      for bytes in stored { #expect(bytes.range(of: Data(HealthServer.token.utf8)) == nil) }

      try await app.openDashboard(range: .week)
      try await shows("dashboard.state", .string("success"))
      try await shows("dashboard.summary.averageHeartRate", .double(64))
      try await shows("dashboard.insights.count", .int(1))

      await app.setHealthForm(metric: .steps, value: "321")
      try await app.submitHealthForm()
      try await shows("outbox.count", .int(0))
      try await shows("dashboard.summary.totalSteps", .double(321))
      try await waitUntil("the server applied the write") {
        try await server.stats()["applied"] == 1
      }

      try await app.relaunch()
      try await shows("auth.state", .string("authenticated"))
      try await shows("app.user", .string("ada@example.com"))

      try await app.logout()
      try await shows("auth.state", .string("idle"))
      await app.shutDown()
    }
  }
}
