import AppFeature
import Foundation
import HealthDomain
import HealthHarness
import TestProcesses
import Testing
import WeftCore
import WeftPersistence
import WeftRuntime
import WeftSimulation

/// Issue 18, items 5 and 6: the sync status tells the truth, and the sync engine's database
/// errors are reported without losing a queued change.
@MainActor
@Suite("Sync status tells the truth")
struct SyncTruthTests {
  static func signedIn(databasePath: String? = nil) async throws -> SimulatedHealthApp {
    let app = try await simulatedApp(databasePath: databasePath)
    try await app.login(email: "ada@example.com", password: "correct-horse")
    return app
  }

  static func submit(_ app: SimulatedHealthApp, steps: Int) async throws {
    await app.setHealthForm(metric: .steps, value: String(steps))
    let result = try await app.submitHealthForm()
    guard case .success = result else {
      Issue.record("submitting \(steps) steps gave \(result)")
      return
    }
  }

  static func sql(_ app: SimulatedHealthApp, _ statement: String) async throws {
    try await app.launch.database.write { tx in try tx.execute(statement) }
  }

  /// Three 503s use up one delivery's HTTP attempts (3): the entry fails once and goes back
  /// to the outbox with a backoff of about 2 s.
  static let oneFailedDelivery = NetworkFaultSpec(
    .serverError(status: 503), count: 3, path: "/metrics/{id}")

  // time:  0 ─ A fails (503 ×3), waits ~2 s ─ B delivered while A waits ─ A delivered
  // Old code: after B's pass, "completed" with no error while A, which failed, still waited.
  @Test func aFailedEntryStillWaitingKeepsTheStatusFailedUntilTheOutboxDrains() async throws {
    let app = try await Self.signedIn()
    app.injectFault(Self.oneFailedDelivery)
    app.runsUntilIdleAfterEachAction = false
    try await Self.submit(app, steps: 100)
    try await app.advanceClock(by: .seconds(1))
    #expect(app.value("sync.status") == .string("failed"))
    let failure = try #require(app.value("sync.lastError").text)
    #expect(failure.contains("503"))
    #expect(app.value("outbox.count") == .int(1))

    try await Self.submit(app, steps: 200)
    try await app.advanceClock(by: .milliseconds(300))
    #expect(app.simulation.server.appliedWrites == 1)
    #expect(app.value("outbox.count") == .int(1))
    #expect(app.value("sync.status") == .string("failed"))
    #expect(app.value("sync.lastError") == .string(failure))

    try await app.runUntilIdle()
    #expect(app.value("outbox.count") == .int(0))
    #expect(app.simulation.server.appliedWrites == 2)
    #expect(app.value("sync.status") == .string("completed"))
    #expect(app.value("sync.lastError") == .none)
    let history = try #require(app.launch.outbox.state.lastFailure)
    #expect(history.message == failure)
    await app.shutDown()
  }

  // A failing pass (simulated backend fault), then a drain that delivers everything.
  @Test func afterAFailedPassAndAFullDrainNothingSaysFailed() async throws {
    let app = try await Self.signedIn()
    let statuses = StatusLog()
    let subscription = app.launch.appState.cell.observeSynchronously(
      WeftCore.StateSelector(id: "test.sync.status") { $0.syncStatus.name }
    ) { statuses.record($0.value) }
    app.injectFault(Self.oneFailedDelivery)
    try await Self.submit(app, steps: 300)
    subscription.cancel()
    #expect(statuses.all.contains("failed"))
    #expect(app.value("outbox.count") == .int(0))
    #expect(app.value("sync.status") == .string("completed"))
    #expect(app.value("sync.lastError") == .none)
    #expect(app.launch.outbox.state.lastFailure?.message.contains("503") == true)
    await app.shutDown()
  }

  // Old code: the outbox emptied by a logout, and `sync.lastError` still described the
  // failure of a change that no longer existed — also after signing in again.
  @Test func anOutboxEmptiedByALogoutLeavesNoPresentError() async throws {
    let app = try await Self.signedIn()
    app.injectFault(Self.oneFailedDelivery)
    app.runsUntilIdleAfterEachAction = false
    try await Self.submit(app, steps: 400)
    try await app.advanceClock(by: .seconds(1))
    #expect(app.value("sync.lastError") != .none)
    app.runsUntilIdleAfterEachAction = true
    try await app.logout()
    #expect(app.value("outbox.count") == .int(0))
    #expect(app.value("sync.lastError") == .none)
    #expect(app.value("sync.status") != .string("failed"))
    try await app.login(email: "ada@example.com", password: "correct-horse")
    #expect(app.value("sync.lastError") == .none)
    #expect(app.value("sync.status") != .string("failed"))
    await app.shutDown()
  }

  // A real constraint refuses every change to the outbox's rows: a pass cannot lease
  // (dequeue) its entries. Old code: the pass ended as "completed" with no error.
  @Test func anOutboxThatCannotBeReadMarksTheSyncFailedAndKeepsEveryEntry() async throws {
    let file = TemporaryDatabase()
    defer { file.remove() }
    let app = try await Self.signedIn(databasePath: file.path)
    try await app.setNetwork(online: false)
    try await Self.submit(app, steps: 10)
    try await Self.submit(app, steps: 20)
    try await Self.sql(
      app,
      "CREATE TRIGGER frozen BEFORE UPDATE ON weft_outbox "
        + "BEGIN SELECT RAISE(ABORT, 'the outbox is frozen'); END")

    try await app.setNetwork(online: true)
    #expect(app.value("sync.status") == .string("failed"))
    let error = try #require(app.value("sync.lastError").text)
    #expect(error.hasPrefix("database: the outbox could not be read"))
    #expect(error.contains("the outbox is frozen"))
    #expect(app.value("outbox.count") == .int(2))
    #expect(try await app.launch.database.outbox.pending().count == 2)
    #expect(app.simulation.server.appliedWrites == 0)

    try await Self.sql(app, "DROP TRIGGER frozen")
    try await app.setNetwork(online: false)
    try await app.setNetwork(online: true)
    #expect(app.value("outbox.count") == .int(0))
    #expect(app.simulation.server.appliedWrites == 2)
    #expect(app.value("sync.status") == .string("completed"))
    #expect(app.value("sync.lastError") == .none)
    #expect(app.launch.outbox.state.lastFailure?.message == error)
    await app.shutDown()
  }

  // The server applies the change but the outbox cannot delete its row. Old code: counted
  // as delivered, "completed". The entry stays, is sent again after its lease, and the
  // server applies it once.
  @Test func aDeliveryTheOutboxCannotAcknowledgeIsReportedAndSentAgain() async throws {
    let file = TemporaryDatabase()
    defer { file.remove() }
    let app = try await Self.signedIn(databasePath: file.path)
    try await app.setNetwork(online: false)
    try await Self.submit(app, steps: 30)
    try await Self.sql(
      app,
      "CREATE TRIGGER keep BEFORE DELETE ON weft_outbox "
        + "BEGIN SELECT RAISE(ABORT, 'rows stay'); END")

    try await app.setNetwork(online: true)
    let server = app.simulation.server
    #expect(server.appliedWrites == 1)
    #expect(app.value("sync.status") == .string("failed"))
    let error = try #require(app.value("sync.lastError").text)
    #expect(error.contains("a delivered entry could not be removed"))
    #expect(error.contains("rows stay"))
    #expect(app.value("sync.delivered") == .int(0))
    #expect(app.value("outbox.count") == .int(1))

    try await Self.sql(app, "DROP TRIGGER keep")
    try await app.advanceClock(by: .seconds(61))  // the delivery's lease runs out
    try await app.setNetwork(online: false)
    try await app.setNetwork(online: true)
    #expect(app.value("outbox.count") == .int(0))
    #expect(server.appliedWrites == 1)
    #expect(server.replayedWrites == 1)
    #expect(app.value("sync.status") == .string("completed"))
    #expect(app.value("sync.lastError") == .none)
    await app.shutDown()
  }

  // The delivery fails and the outbox cannot record the failure (a constraint on the
  // attempts column only): reported with both errors; the entry stays queued.
  @Test func aFailureTheOutboxCannotRecordIsReportedWithBothErrors() async throws {
    let file = TemporaryDatabase()
    defer { file.remove() }
    let app = try await Self.signedIn(databasePath: file.path)
    try await app.setNetwork(online: false)
    try await Self.submit(app, steps: 40)
    try await Self.sql(
      app,
      "CREATE TRIGGER attempts BEFORE UPDATE OF attempts ON weft_outbox "
        + "BEGIN SELECT RAISE(ABORT, 'attempts are fixed'); END")
    app.injectFault(Self.oneFailedDelivery)

    try await app.setNetwork(online: true)
    #expect(app.value("sync.status") == .string("failed"))
    let error = try #require(app.value("sync.lastError").text)
    #expect(error.contains("a failed delivery"))
    #expect(error.contains("503"))
    #expect(error.contains("attempts are fixed"))
    #expect(app.value("outbox.count") == .int(1))
    #expect(try await app.launch.database.outbox.pending().count == 1)
    await app.shutDown()
  }
}

/// Sync statuses seen by a synchronous observer, in order.
final class StatusLog: Sendable {
  private let entries = Locked<[String]>([])
  var all: [String] { entries.withLock { $0 } }
  func record(_ name: String) { entries.withLock { $0.append(name) } }
}

extension ObservedValue {
  /// The text of a `.string` value.
  var text: String? {
    if case .string(let text) = self { return text }
    return nil
  }
}

/// Work that keeps rescheduling itself makes a settle give up after an hour of virtual time,
/// naming the timers still pending; it never returns as if the app were idle.
@MainActor
@Suite("A settle that cannot end reports itself")
struct EndlessSettleTests {
  @Test func aTimerThatKeepsRearmingEndsTheSettleWithNotIdle() async throws {
    let app = try await simulatedApp()
    let ticker = Task {
      while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }  // try?: cancelled
    }
    await #expect {
      try await app.runUntilIdle()
    } throws: { error in
      guard case AppRuntimeError.notIdle(let pending, _) = error else { return false }
      return pending == 1
    }
    // An action that settles reports it too, instead of returning with work pending.
    await #expect(throws: AppRuntimeError.self) { try await app.setNetwork(online: false) }
    ticker.cancel()
    try await app.runUntilIdle()
    #expect(DeterministicRuntime.current?.pendingTimers.isEmpty == true)
    await app.shutDown()
  }
}
