import DashboardFeature
import Foundation
import HealthDomain
import Testing
import WeftNetworking
import WeftPersistence

@Suite("Dashboard sync failures")
struct DashboardSyncFailureTests {
  @Test func aFailedSyncKeepsTheDataAndShowsTheError() async throws {
    let harness = try await Harness()
    let local = metric(1, .heartRate, 64, at: -hour)
    try await harness.seed([local])
    harness.backend.transport.inject(
      .serverError(status: 503), times: 1, on: .get, HealthAPI.Path.metrics)
    await harness.dashboard.load()
    var state = harness.dashboard.state
    #expect(state.viewState.data?.metrics == [local])
    #expect(state.viewState.errorMessage == nil)
    #expect(state.isSyncing == false)
    #expect(
      state.lastSyncError
        == "Could not sync with the server: the server answered HTTP 503. Showing the data "
        + "saved on this device; pull to refresh to try again.")
    #expect(state.lastSyncedAt == nil)
    #expect(state.errorMessage == state.lastSyncError)

    await harness.dashboard.refresh()
    state = harness.dashboard.state
    #expect(state.lastSyncError == nil)
    #expect(state.lastSyncedAt == referenceDate)
    await harness.database.close()
  }

  @Test func offlineSaysSo() async throws {
    let harness = try await Harness()
    harness.backend.transport.inject(.offline, times: 1)
    await harness.dashboard.load()
    #expect(harness.dashboard.state.viewState == .success(harness.dashboard.state.viewState.data!))
    #expect(
      harness.dashboard.state.lastSyncError
        == "You are offline. Showing the data saved on this device; it syncs when the network "
        + "is back.")
    await harness.database.close()
  }

  @Test func syncFailureMessagesArePinned() {
    let request = HTTPRequest(method: .get, url: URL(string: "https://health.test/metrics")!)
    func message(_ kind: NetworkError.Kind) -> String {
      DashboardMessages.syncFailed(
        NetworkError(kind, request: request, endpoint: "GET /metrics", attempt: 1))
    }
    let tail = ". Showing the data saved on this device; pull to refresh to try again."
    #expect(
      message(.timeout(after: .seconds(30)))
        == "Could not sync with the server: the server did not answer in time" + tail)
    #expect(
      message(.decoding(codingPath: "[0].date", message: "x"))
        == "Could not sync with the server: the server's answer was not understood" + tail)
    #expect(
      message(.transport(message: "refused"))
        == "Could not sync with the server: the connection failed" + tail)
    #expect(
      message(.authentication(message: "expired"))
        == "Could not sync with the server: the session expired; sign in again" + tail)
  }

  @Test func aFailedLocalLoadShowsTheError() async throws {
    let harness = try await Harness()
    await harness.database.close()
    await harness.dashboard.load()
    let message = harness.dashboard.state.viewState.errorMessage
    #expect(harness.dashboard.state.errorMessage == message)
    #expect(
      message
        == "Could not read the health data saved on this device (:memory: was closed: open it "
        + "again with Database.open to keep using it.). Restart the app; if it keeps failing, "
        + "sign out and in again to rebuild the local copy.")
    #expect(harness.backend.transport.requestCount == 0)
  }
}
