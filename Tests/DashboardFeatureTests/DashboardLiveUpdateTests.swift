import DashboardFeature
import Foundation
import HealthDomain
import Testing
import WeftPersistence

@Suite("Dashboard live updates")
struct DashboardLiveUpdateTests {
  @Test func aMetricSavedElsewhereAppearsWithoutARefresh() async throws {
    let harness = try await Harness()
    try await harness.seed([metric(1, .steps, 1000, at: -hour)])
    await harness.dashboard.start()
    #expect(harness.dashboard.state.summary?.totalSteps == 1000)
    let requests = harness.backend.transport.requestCount

    // What the entry form does: save and enqueue in one transaction.
    let saved = metric(2, .steps, 2500, at: -30 * 60)
    try await harness.database.write { tx in try tx.saveForSync(saved) }

    let state = await harness.dashboard.waitUntil { $0.metrics.contains(saved) }
    #expect(state.summary?.totalSteps == 3500)
    #expect(state.metrics.first == saved)
    #expect(state.liveUpdateCount >= 1)
    #expect(state.loadCount == 1)
    #expect(harness.backend.transport.requestCount == requests)
    await harness.database.close()
  }

  @Test func aMetricOutsideTheRangeChangesNothingOnScreen() async throws {
    let harness = try await Harness()
    await harness.dashboard.select(.day)
    await harness.dashboard.startObserving()
    try await harness.database.write { tx in
      try tx.saveForSync(metric(1, .steps, 99, at: -3 * day))  // outside today
      try tx.saveForSync(metric(2, .heartRate, 70, at: -hour))  // today
    }
    let state = await harness.dashboard.waitUntil { $0.metrics.count == 1 }
    #expect(state.metrics.map(\.id) == [uuid(2)])
    await harness.database.close()
  }

  @Test func catchUpShowsEveryEarlierCommit() async throws {
    let harness = try await Harness()
    await harness.dashboard.load()
    try await harness.database.write { tx in try tx.saveForSync(metric(1, .steps, 10, at: -hour)) }
    await harness.dashboard.catchUp()
    #expect(harness.dashboard.state.metrics.map(\.id) == [uuid(1)])
    #expect(harness.dashboard.state.liveUpdateCount == 1)
    await harness.dashboard.catchUp()
    #expect(harness.dashboard.state.liveUpdateCount == 1)
    await harness.database.close()
  }

  @Test func observedValuesWaitForTheFirstLoad() async throws {
    let harness = try await Harness()
    await harness.dashboard.startObserving()
    try await harness.database.write { tx in try tx.saveForSync(metric(1, .steps, 1, at: -hour)) }
    #expect(harness.dashboard.state.viewState == .idle)
    await harness.dashboard.stopObserving()
    #expect(await harness.dashboard.isObserving == false)
    await harness.database.close()
  }
}
