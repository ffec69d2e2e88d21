import AppFeature
import HealthHarness
import Testing
import WeftRuntime

@MainActor
@Suite("Controlling time from the runtime")
struct TimeControlTests {
  @Test func withoutAutoSettleIntermediateStatesCanBeObserved() async throws {
    let app = try await simulatedApp()
    try await app.login(email: "ada@example.com", password: "correct-horse")
    let start = RuntimeClock().now
    app.runsUntilIdleAfterEachAction = false
    try await app.openDashboard(range: .week)
    // The local data is on screen and the sync request waits 40 ms of latency.
    try await app.advanceClock(by: .milliseconds(10))
    #expect(app.elapsed(since: start) == .milliseconds(10))
    #expect(app.value("dashboard.state") == .string("success"))
    #expect(app.value("dashboard.isSyncing") == .bool(true))
    #expect(DeterministicRuntime.current?.pendingTimers.isEmpty == false)
    try await app.runUntilIdle()
    #expect(app.value("dashboard.isSyncing") == .bool(false))
    #expect(DeterministicRuntime.current?.pendingTimers.isEmpty == true)
    await app.shutDown()
  }

  @Test func aDroppedRealtimeConnectionReconnectsAfterItsBackoff() async throws {
    let app = try await simulatedApp()
    try await app.login(email: "ada@example.com", password: "correct-horse")
    let server = app.simulation.realtime
    #expect(server.dialCount == 1)
    let before = RuntimeClock().now
    try await app.realtimeDrop()
    #expect(app.value("realtime.state") == .string("connected"))
    #expect(server.dialCount == 2)
    // The reconnect waited its (seeded) backoff: between half and all of one second.
    let waited = app.elapsed(since: before)
    #expect(waited >= .milliseconds(500) && waited <= .seconds(1))
    try await app.realtimeDisconnect()
    #expect(app.value("realtime.state") == .string("disconnected"))
    await #expect(throws: AppRuntimeError.self) { try await app.pushInsight(title: "x") }
    try await app.realtimeConnect()
    try await app.pushInsight(title: "back")
    #expect(app.value("realtime.received") == .int(1))
    await app.shutDown()
  }

  @Test func aRefusedRealtimeServerEndsInFailedAfterTheLastAttempt() async throws {
    let app = try await simulatedApp()
    try await app.login(email: "ada@example.com", password: "correct-horse")
    let server = app.simulation.realtime
    server.setRefusing(true)
    try await app.realtimeDrop()
    #expect(app.value("realtime.state") == .string("failed"))
    #expect(server.dialCount == 1 + 6)
    await app.shutDown()
  }
}
