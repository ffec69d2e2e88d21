import AppFeature
import Foundation
import HealthDomain
import HealthHarness
import Testing
import WeftCore

@MainActor
@Suite("The dashboard through the simulated app")
struct DashboardTests {
  static func signedIn() async throws -> SimulatedHealthApp {
    let app = try await simulatedApp()
    try await app.login(email: "ada@example.com", password: "correct-horse")
    return app
  }

  @Test func theWeekSummaryIsComputedFromTheServersData() async throws {
    let app = try await Self.signedIn()
    try await app.openDashboard(range: .week)
    #expect(app.value("dashboard.state") == .string("success"))
    #expect(app.value("dashboard.range") == .string("week"))
    // Seeded: heart rate 62, 70, 78 this week (90 is 20 days old); steps 8000 + 4000;
    // sleep 7.5 + 6.5.
    #expect(app.value("dashboard.summary.averageHeartRate") == .double(70))
    #expect(app.value("dashboard.summary.totalSteps") == .double(12000))
    #expect(app.value("dashboard.summary.sleepDuration") == .double(14))
    #expect(app.value("dashboard.summary") == .string("heartRate=70 steps=12000 sleep=14"))
    #expect(app.value("dashboard.insights.count") == .int(3))
    #expect(app.value("dashboard.error") == .none)
    await app.shutDown()
  }

  @Test func eachRangeSumsItsOwnMetrics() async throws {
    let app = try await Self.signedIn()
    try await app.openDashboard(range: .day)
    #expect(app.value("dashboard.summary.averageHeartRate") == .double(62))
    #expect(app.value("dashboard.summary.totalSteps") == .double(8000))
    #expect(app.value("dashboard.summary.sleepDuration") == .double(7.5))
    try await app.setDashboardRange(.month)
    #expect(app.value("dashboard.range") == .string("month"))
    #expect(app.value("dashboard.summary.averageHeartRate") == .double(75))
    #expect(app.value("dashboard.metrics.count") == .int(8))
    let start = SimulationEnvironment.referenceDate
    try await app.setDashboardRange(
      .custom(from: start.addingTimeInterval(-80 * 3600), to: start.addingTimeInterval(-20 * 3600)))
    #expect(app.value("dashboard.range") == .string("custom"))
    #expect(app.value("dashboard.summary.averageHeartRate") == .double(74))
    #expect(app.value("dashboard.summary.totalSteps") == .double(4000))
    #expect(app.value("dashboard.summary.sleepDuration") == .double(6.5))
    await app.shutDown()
  }

  @Test func aSavedMetricShowsUpWithoutARefresh() async throws {
    let app = try await Self.signedIn()
    try await app.openDashboard(range: .week)
    let loads = app.launch.dashboard.state.loadCount
    await app.setHealthForm(metric: .steps, value: "500")
    try await app.submitHealthForm()
    #expect(app.value("dashboard.summary.totalSteps") == .double(12500))
    #expect(app.launch.dashboard.state.loadCount == loads)
    await app.setHealthForm(metric: .heartRate, value: "90")
    try await app.submitHealthForm()
    #expect(app.value("dashboard.summary.averageHeartRate") == .double(75))
    await app.shutDown()
  }

  /// A submit's dashboard update (its database observation, no extra read) commits before
  /// the sync pass it requests starts (the pass waits for the network's latency); both run
  /// within the same action.
  @Test func aSubmitUpdatesTheDashboardBeforeItRequestsTheSyncPass() async throws {
    let app = try await Self.signedIn()
    try await app.openDashboard(range: .week)
    let passesBefore = app.value("sync.passes")
    // What committed, in order: the dashboard's summary, and each sync pass's start.
    let order = Locked<[String]>([])
    let watch = app.launch.dashboard.cell.observeSynchronously(
      WeftCore.StateSelector(id: "test.summary") { $0.summary }
    ) { _ in order.withLock { $0.append("dashboard") } }
    let passes = app.launch.appState.cell.observeSynchronously(
      WeftCore.StateSelector(id: "test.sync") { $0.syncStatus.name == "syncing" }
    ) { change in if change.value { order.withLock { $0.append("sync") } } }
    let shown = DeliveryLog()
    let view = try #require(app.paths["dashboard.summary"]).subscribe { value, version in
      shown.record(value, version)
    }
    await app.setHealthForm(metric: .heartRate, value: "90")
    try await app.submitHealthForm()
    await app.setHealthForm(metric: .heartRate, value: "62")
    try await app.submitHealthForm()
    watch.cancel()
    passes.cancel()
    view.cancel()
    // One dashboard commit per submit, each before its pass started.
    #expect(order.withLock { $0 } == ["dashboard", "sync", "dashboard", "sync"])
    #expect(app.value("sync.passes") != passesBefore)
    #expect(app.value("outbox.count") == .int(0))
    // The summary's text follows every change (62, 70, 78 seeded; then 90; then 62).
    #expect(
      shown.values == [
        .string("heartRate=75 steps=12000 sleep=14"),
        .string("heartRate=72.4 steps=12000 sleep=14"),
      ])
    #expect(app.value("dashboard.summary") == .string("heartRate=72.4 steps=12000 sleep=14"))
    await app.shutDown()
  }

  @Test func aPushedInsightReachesTheDashboard() async throws {
    let app = try await Self.signedIn()
    try await app.openDashboard()
    try await app.pushInsight(title: "New record", body: "You walked 12,500 steps.")
    #expect(app.value("realtime.received") == .int(1))
    #expect(app.value("realtime.lastInsight") == .string("New record"))
    #expect(app.value("dashboard.insights.count") == .int(4))
    #expect(app.launch.dashboard.state.latestInsights.first?.title == "New record")
    await app.shutDown()
  }

  @Test func aFailedSyncKeepsTheLocalDataAndSaysWhy() async throws {
    let app = try await Self.signedIn()
    try await app.openDashboard(range: .week)
    app.injectFault(NetworkFaultSpec(.serverError(status: 503), path: "/metrics"))
    try await app.refreshDashboard()
    #expect(app.value("dashboard.state") == .string("success"))
    #expect(app.value("dashboard.summary.totalSteps") == .double(12000))
    #expect(
      app.value("dashboard.error")
        == .string(
          "Could not sync with the server: the server answered HTTP 503. Showing the data saved "
            + "on this device; pull to refresh to try again."))
    app.clearFaults()
    try await app.refreshDashboard()
    #expect(app.value("dashboard.error") == .none)
    await app.shutDown()
  }
}
