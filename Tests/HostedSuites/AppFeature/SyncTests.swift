import AppFeature
import HealthDomain
import HealthHarness
import Testing

@MainActor
@Suite("Syncing the outbox")
struct SyncTests {
  static func signedIn(seed: UInt64 = 1) async throws -> SimulatedHealthApp {
    let app = try await simulatedApp(seed: seed)
    try await app.login(email: "ada@example.com", password: "correct-horse")
    return app
  }

  static func submitSteps(_ app: SimulatedHealthApp, _ values: [Int]) async throws {
    for value in values {
      await app.setHealthForm(metric: .steps, value: String(value))
      let result = try await app.submitHealthForm()
      guard case .success = result else {
        Issue.record("submitting \(value) steps gave \(result)")
        return
      }
    }
  }

  @Test func metricsSavedOfflineAreDeliveredOnceWhenTheNetworkComesBack() async throws {
    let app = try await Self.signedIn()
    let server = app.simulation.server
    try await app.setNetwork(online: false)
    #expect(app.value("network.online") == .bool(false))
    try await Self.submitSteps(app, [100, 200, 300, 400, 500])
    #expect(app.value("outbox.count") == .int(5))
    #expect(app.value("sync.pending") == .int(5))
    #expect(server.appliedWrites == 0)

    try await app.setNetwork(online: true)
    #expect(app.value("outbox.count") == .int(0))
    #expect(app.value("sync.status") == .string("completed"))
    #expect(app.value("sync.delivered") == .int(5))
    #expect(server.appliedWrites == 5)
    #expect(server.replayedWrites == 0)
    let steps = server.metrics(of: "ada@example.com").filter {
      $0.source == HealthMetric.manualEntry
    }
    #expect(steps.map(\.value).sorted() == [100, 200, 300, 400, 500])
    await app.shutDown()
  }

  @Test func aLostResponseIsReplayedAndStillAppliedOnce() async throws {
    let app = try await Self.signedIn()
    let server = app.simulation.server
    // The server applies the first PUT but its answer never arrives; the client retries the
    // same idempotency key, and the server answers from its store.
    app.injectFault(NetworkFaultSpec(.timeout, count: 1, path: "/metrics/{id}"))
    try await Self.submitSteps(app, [1234])
    #expect(app.value("outbox.count") == .int(0))
    #expect(server.appliedWrites == 1)
    #expect(server.replayedWrites == 1)
    await app.shutDown()
  }

  @Test func aGarbledAnswerIsRetriedFromTheOutboxAndAppliedOnce() async throws {
    let app = try await Self.signedIn()
    let server = app.simulation.server
    app.injectFault(NetworkFaultSpec(.garbage, count: 1, path: "/metrics/{id}"))
    try await Self.submitSteps(app, [4321])
    // Settling drove the outbox backoff: the entry went out again and the server replayed.
    #expect(app.value("outbox.count") == .int(0))
    #expect(app.value("sync.passes").number.map { $0 >= 2 } == true)
    #expect(server.appliedWrites == 1)
    #expect(server.replayedWrites == 1)
    await app.shutDown()
  }

  @Test func anEntryTheServerKeepsRefusingIsDeadLettered() async throws {
    let app = try await Self.signedIn()
    app.injectFault(NetworkFaultSpec(.serverError(status: 500), path: "/metrics/{id}"))
    try await Self.submitSteps(app, [10])
    #expect(app.value("outbox.deadLetters") == .int(1))
    #expect(app.value("sync.pending") == .int(0))
    #expect(app.value("outbox.count") == .int(1))
    #expect(app.value("sync.status") == .string("failed"))
    await app.shutDown()
  }

  @Test func offlineModeHoldsChangesUntilItIsTurnedOff() async throws {
    let app = try await Self.signedIn()
    try await app.setFeature("offlineMode", enabled: true)
    try await Self.submitSteps(app, [1, 2])
    #expect(app.value("outbox.count") == .int(2))
    try await app.setFeature("offlineMode", enabled: false)
    #expect(app.value("outbox.count") == .int(0))
    #expect(app.simulation.server.appliedWrites == 2)
    await app.shutDown()
  }
}
