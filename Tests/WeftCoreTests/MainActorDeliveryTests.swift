import Testing

@testable import WeftCore

@Suite("MainActor delivery")
@MainActor
struct MainActorDeliveryTests {
  @Test func burstIsCoalescedIntoOneJobWithTheLatestValue() async {
    let monitor = PerformanceMonitor(enabled: true)
    // The MainActor owns this cell, so the ten commits run back to back while the MainActor
    // is busy: exactly the burst a job must coalesce.
    let cell = StateCell(Profile(), name: "ProfileClient", monitor: monitor)
    var seen: [Change<Int>] = []
    let token = cell.observeOnMainActor(\.visits) { seen.append($0) }
    for _ in 0..<10 { cell.update { $0.visits += 1 } }
    cell.deliverPendingMainActorChanges()
    #expect(seen == [Change(value: 10, version: 10)])
    #expect(monitor.metrics(for: "ProfileClient")?.deliveryJobs == 1)
    token.cancel()
  }

  @Test func unchangedProjectionIsNotDelivered() async {
    let client = ProfileClient()
    var names: [String] = []
    let token = client.observeOnMainActor(\.name) { names.append($0.value) }
    await client.update { $0.visits += 1 }
    client.cell.deliverPendingMainActorChanges()
    #expect(names.isEmpty)
    await client.update { $0.name = "Ada" }
    client.cell.deliverPendingMainActorChanges()
    #expect(names == ["Ada"])
    token.cancel()
  }
}
