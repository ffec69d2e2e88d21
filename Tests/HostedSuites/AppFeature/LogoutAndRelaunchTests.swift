import AppFeature
import AuthFeature
import Foundation
import HealthDomain
import HealthHarness
import TestProcesses
import Testing

@MainActor
@Suite("Logging out and relaunching")
struct LogoutAndRelaunchTests {
  @Test func logoutClearsEveryClient() async throws {
    let app = try await simulatedApp()
    try await app.login(email: "ada@example.com", password: "correct-horse")
    try await app.openDashboard(range: .week)
    try await app.setNetwork(online: false)
    await app.setHealthForm(metric: .steps, value: "42", notes: "walk")
    try await app.submitHealthForm()
    await app.setHealthForm(metric: .heartRate, value: "71")
    await app.pushNavigation("metric-detail")
    try await app.presentSheet("settings")
    try await app.setNetwork(online: true)
    let token = try #require(app.launch.appState.state.authToken)

    try await app.logout()

    #expect(app.value("auth.state") == .string("idle"))
    #expect(app.value("app.user") == .none)
    #expect(app.launch.appState.state.authToken == nil)
    #expect(app.value("app.navigation.depth") == .int(0))
    #expect(app.value("app.sheet") == .none)
    #expect(app.value("app.loading") == .bool(false))
    #expect(app.value("sync.status") == .string("idle"))
    #expect(app.value("login.email") == .string(""))
    #expect(app.value("login.password") == .string(""))
    #expect(app.value("dashboard.state") == .string("idle"))
    #expect(app.value("dashboard.summary") == .none)
    #expect(app.value("form.value") == .string(""))
    #expect(app.value("outbox.count") == .int(0))
    #expect(app.value("realtime.state") == .string("disconnected"))
    #expect(try await app.launch.database.count(HealthMetric.self) == 0)
    #expect(
      try await SessionStore(database: app.launch.database, secrets: app.dependencies.secrets)
        .load() == nil)
    #expect(try await app.dependencies.secrets.read(SessionStore.tokenKey) == nil)
    // The server revoked the token (asked directly, without latency).
    app.setLatency(.zero)
    let transport = app.simulation.network
    var request = HTTPRequestFixture.get("/insights")
    request.headers["Authorization"] = "Bearer \(token)"
    #expect(try await transport.send(request).status == 401)
    await app.shutDown()
  }

  @Test func aRelaunchRestoresTheSessionAndTheQueueFromTheFile() async throws {
    let file = TemporaryDatabase()
    defer { file.remove() }
    let app = try await simulatedApp(databasePath: file.path)
    try await app.login(email: "ada@example.com", password: "correct-horse")
    try await app.setNetwork(online: false)
    await app.setHealthForm(metric: .sleepDuration, value: "8")
    try await app.submitHealthForm()
    #expect(app.value("outbox.count") == .int(1))

    try await app.relaunch()

    #expect(app.launchCount == 2)
    #expect(app.value("auth.state") == .string("authenticated"))
    #expect(app.value("app.user") == .string("ada@example.com"))
    #expect(app.value("outbox.count") == .int(1))
    #expect(app.value("network.online") == .bool(false))
    try await app.setNetwork(online: true)
    #expect(app.value("outbox.count") == .int(0))
    #expect(app.simulation.server.appliedWrites == 1)
    await app.shutDown()
  }

  @Test func aSessionThatExpiredWhileClosedLeadsBackToLogin() async throws {
    let file = TemporaryDatabase()
    defer { file.remove() }
    let app = try await simulatedApp(databasePath: file.path)
    try await app.login(email: "ada@example.com", password: "correct-horse")
    try await app.advanceClock(by: .seconds(2 * 3600))
    try await app.relaunch()
    #expect(app.value("auth.state") == .string("failed"))
    #expect(app.value("auth.error") == .string("sessionExpired"))
    #expect(app.value("app.isAuthenticated") == .bool(false))
    try await app.login(email: "ada@example.com", password: "correct-horse")
    #expect(app.value("auth.state") == .string("authenticated"))
    await app.shutDown()
  }

  @Test func expiringTheSessionShowsTheLoginScreenWithTheReason() async throws {
    let app = try await simulatedApp()
    try await app.login(email: "ada@example.com", password: "correct-horse")
    try await app.expireSession()
    #expect(app.value("auth.error") == .string("sessionExpired"))
    #expect(app.value("app.isAuthenticated") == .bool(false))
    #expect(app.value("app.alert") == .string(AuthError.sessionExpired.description))
    #expect(app.value("login.error") == .string(AuthError.sessionExpired.description))
    await #expect(throws: AppRuntimeError.app(.notAuthenticated(action: "session.expire"))) {
      try await app.expireSession()
    }
    await app.shutDown()
  }

  @Test func aTokenTheServerRejectsEndsTheSession() async throws {
    let app = try await simulatedApp()
    try await app.login(email: "ada@example.com", password: "correct-horse")
    app.simulation.server.revokeTokens(ofUser: "user-ada")
    await app.setHealthForm(metric: .steps, value: "7")
    try await app.submitHealthForm()
    #expect(app.value("auth.error") == .string("tokenRejected"))
    #expect(app.value("app.alert") == .string(AuthError.tokenRejected.description))
    #expect(app.value("outbox.count") == .int(1))
    #expect(app.simulation.server.appliedWrites == 0)
    // Signing in again delivers what was queued.
    try await app.login(email: "ada@example.com", password: "correct-horse")
    #expect(app.value("outbox.count") == .int(0))
    #expect(app.simulation.server.appliedWrites == 1)
    await app.shutDown()
  }
}
