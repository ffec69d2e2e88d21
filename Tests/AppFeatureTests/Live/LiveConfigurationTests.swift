import AppFeature
import Foundation
import Testing

@MainActor
@Suite("The live configuration against a loopback server")
struct LiveConfigurationTests {
  @Test func signsInLoadsTheDashboardSyncsAndRestoresTheSession() async throws {
    try await withHealthServer { server in
      let file = TemporaryDatabase()
      defer { file.remove() }
      let app = try await AppRuntime.build(
        .live(baseURL: server.baseURL, databasePath: file.path))
      app.settler.stallTimeout = .seconds(20)
      #expect(app.dependencies.mode == .live)

      try await app.login(email: "ada@example.com", password: "wrong")
      #expect(app.value("auth.error") == .string("invalidCredentials"))
      try await app.login(email: "ada@example.com", password: "correct-horse")
      #expect(app.value("auth.state") == .string("authenticated"))

      try await app.openDashboard(range: .week)
      #expect(app.value("dashboard.state") == .string("success"))
      #expect(app.value("dashboard.summary.averageHeartRate") == .double(64))
      #expect(app.value("dashboard.insights.count") == .int(1))

      await app.setHealthForm(metric: .steps, value: "321")
      try await app.submitHealthForm()
      #expect(app.value("outbox.count") == .int(0))
      #expect(app.value("dashboard.summary.totalSteps") == .double(321))
      #expect(try await server.stats()["applied"] == 1)

      try await app.relaunch()
      #expect(app.value("auth.state") == .string("authenticated"))
      #expect(app.value("app.user") == .string("ada@example.com"))

      await #expect(throws: AppRuntimeError.settle(.realClock)) {
        try await app.advanceClock(by: .seconds(1))
      }
      await #expect(throws: AppRuntimeError.simulationOnly(action: "realtime push")) {
        try await app.pushInsight(title: "x")
      }
      try await app.logout()
      #expect(app.value("auth.state") == .string("idle"))
      await app.shutDown()
    }
  }
}
