import DashboardFeature
import Foundation
import HealthDomain
import Synchronization
import Testing
import WeftCore
import WeftNetworking
import WeftPersistence

@Suite("Dashboard load")
struct DashboardLoadTests {
  /// Metrics at known offsets: today, this week, this month, older.
  static let known: [HealthMetric] = [
    metric(1, .heartRate, 60, at: -1 * hour),  // today
    metric(2, .heartRate, 80, at: -2 * hour),  // today
    metric(3, .steps, 4000, at: -3 * hour),  // today
    metric(4, .sleepDuration, 7, at: -10 * hour),  // today (02:00)
    metric(5, .heartRate, 100, at: -3 * day),  // this week
    metric(6, .steps, 10_000, at: -3 * day),  // this week
    metric(7, .sleepDuration, 6.5, at: -2 * day),  // this week
    metric(8, .steps, 2500, at: -20 * day),  // this month
    metric(9, .heartRate, 70, at: -40 * day),  // older than a month
  ]

  @Test(arguments: [
    (DateRange.day, 4, 70.0, 4000.0, 7.0),
    (.week, 7, 80.0, 14_000.0, 13.5),
    (.month, 8, 80.0, 16_500.0, 13.5),
    (
      .custom(
        from: referenceDate.addingTimeInterval(-45 * day),
        to: referenceDate.addingTimeInterval(-2.5 * day)), 4, 85.0, 12_500.0, 0.0
    ),
  ])
  func rangesAndSummaryFromKnownData(
    range: DateRange, count: Int, heartRate: Double, steps: Double, sleep: Double
  ) async throws {
    let harness = try await Harness()
    try await harness.seed(Self.known)
    await harness.dashboard.select(range)
    let state = harness.dashboard.state
    #expect(state.range == range)
    #expect(state.metrics.count == count)
    #expect(state.summary?.averageHeartRate == heartRate)
    #expect(state.summary?.totalSteps == steps)
    #expect(state.summary?.sleepDuration == sleep)
    #expect(state.metrics.map(\.date) == state.metrics.map(\.date).sorted(by: >))
    #expect(state.lastSyncError == nil)
    await harness.database.close()
  }

  @Test func localFirstThenSyncThenLocalAgain() async throws {
    let harness = try await Harness()
    let local = metric(1, .steps, 1000, at: -hour)
    let remote = metric(2, .steps, 500, at: -2 * hour, source: "Watch")
    try await harness.seed([local])
    harness.backend.set(metrics: [remote], insights: [insight(10, at: -hour)])
    let dashboard = harness.dashboard
    // When the backend is asked, the local data is already on screen.
    let seenAtSync = SeenStates()
    harness.backend.whenMetricsRequested { seenAtSync.append(dashboard.state) }
    let history = dashboard.changes(buffering: .unbounded)

    await dashboard.load()

    #expect(seenAtSync.states.count == 1)
    #expect(seenAtSync.states.first?.metrics == [local])
    #expect(seenAtSync.states.first?.isSyncing == true)
    let final = dashboard.snapshot
    #expect(final.state.metrics == [local, remote])
    #expect(final.state.summary?.totalSteps == 1500)
    #expect(final.state.latestInsights.map(\.id) == [uuid(10)])
    #expect(final.state.lastSyncedAt == referenceDate)
    #expect(try await harness.database.fetch(HealthMetric.self, id: remote.id) == remote)

    var steps: [String] = []
    for await snapshot in history {
      let state = snapshot.state
      steps.append(
        "\(state.viewState.caseName)\(state.isSyncing ? "+sync" : "")"
          + " \(state.metrics.count)")
      if snapshot.version == final.version { break }
    }
    #expect(
      steps == [
        "idle 0", "loading 0", "success 1", "success+sync 1", "success 1", "success 2",
      ])
    await harness.database.close()
  }

  @Test func refreshRunsTheLoadAgain() async throws {
    let harness = try await Harness()
    await harness.dashboard.load()
    #expect(harness.dashboard.state.metrics.isEmpty)
    harness.backend.set(metrics: [metric(1, .heartRate, 72, at: -hour)])
    await harness.dashboard.refresh()
    #expect(harness.dashboard.state.metrics.map(\.id) == [uuid(1)])
    #expect(harness.dashboard.state.loadCount == 2)
    // A refresh with data on screen never goes back to .loading.
    #expect(harness.backend.transport.requestCount == 4)
    await harness.database.close()
  }

  @Test func latestFiveInsightsNewestFirst() async throws {
    let harness = try await Harness()
    try await harness.seed([], insights: (1...4).map { insight($0, at: -Double($0) * hour) })
    harness.backend.set(insights: (5...8).map { insight($0, at: -Double($0) * 0.5 * hour) })
    await harness.dashboard.load()
    // Remote 5 (-2.5 h), 6 (-3 h), 7 (-3.5 h), 8 (-4 h); local 1 (-1 h) … 4 (-4 h).
    #expect(harness.dashboard.state.latestInsights.map(\.id) == [1, 2, 5, 3, 6].map(uuid))
    await harness.database.close()
  }

  @Test func syncDurationIsMeasuredOnTheInjectedClock() async throws {
    let harness = try await Harness(latency: .fixed(.milliseconds(250)))
    let task = Task { await harness.dashboard.load() }
    for _ in 0..<2 {
      await harness.clock.waitForSleepers(count: 1)
      await harness.clock.advance(by: .milliseconds(250))
    }
    await task.value
    #expect(harness.dashboard.state.lastSyncDuration == .milliseconds(500))
    await harness.database.close()
  }

  @Test func queuedLocalChangesAreNotOverwrittenBySync() async throws {
    let harness = try await Harness()
    let edited = metric(1, .heartRate, 75, at: -hour)
    var stale = edited
    stale.value = 60
    try await harness.database.write { tx in try tx.saveForSync(edited, operation: .update) }
    harness.backend.set(metrics: [stale])
    await harness.dashboard.load()
    #expect(harness.dashboard.state.metrics == [edited])
    await harness.database.close()
  }

  @Test func clearStopsALoadInFlightAndForgetsTheData() async throws {
    let harness = try await Harness(latency: .fixed(.seconds(1)))
    try await harness.seed([metric(1, .steps, 10, at: -hour)])
    let task = Task { await harness.dashboard.load() }
    await harness.clock.waitForSleepers(count: 1)
    #expect(harness.dashboard.state.metrics.count == 1)
    await harness.dashboard.clear()
    await harness.clock.advance(by: .seconds(1))
    await harness.clock.waitForSleepers(count: 1)
    await harness.clock.advance(by: .seconds(1))
    await task.value
    #expect(harness.dashboard.state == DashboardState(range: .week))
    await harness.database.close()
  }

  @Test func theDashboardAndItsDatabaseAreFreed() async throws {
    weak var weakDashboard: DashboardClient?
    weak var weakDatabase: Database?
    do {
      let harness = try await Harness()
      weakDashboard = harness.dashboard
      weakDatabase = harness.database
      await harness.dashboard.start()
      #expect(await harness.dashboard.isObserving)
      await harness.dashboard.stopObserving()
      await harness.database.close()
    }
    #expect(weakDashboard == nil)
    #expect(weakDatabase == nil)
  }
}

/// States captured from a route handler.
final class SeenStates: Sendable {
  private let storage = Mutex<[DashboardState]>([])
  func append(_ state: DashboardState) { storage.withLock { $0.append(state) } }
  var states: [DashboardState] { storage.withLock { $0 } }
}
