import AppFeature
import Testing
import WeftCore
import WeftSimulation

@MainActor
@Suite("Observable paths")
struct PathsTests {
  static let required = [
    "auth.state", "auth.isAuthenticated", "login.email", "login.password", "login.canSubmit",
    "login.error", "app.tab", "app.sheet", "app.alert", "app.navigation.depth", "app.loading",
    "app.error", "sync.status", "sync.pending", "outbox.count", "dashboard.state",
    "dashboard.range", "dashboard.summary", "dashboard.summary.averageHeartRate",
    "dashboard.summary.totalSteps", "dashboard.summary.sleepDuration", "dashboard.insights.count",
    "form.metric", "form.value", "form.error", "form.result", "grades.total", "grades.basis",
    "grades.overLimit", "grades.assignments.total", "grades.assignments.each",
    "grades.assignments.count", "grades.exams.total", "grades.exams.each", "grades.exams.count",
    "network.online", "realtime.state",
  ]

  @Test func everyPathTheSimulatorNeedsExistsAndReads() async throws {
    let app = try await simulatedApp()
    for name in Self.required {
      let path = try #require(app.paths[name], "missing path \(name)")
      #expect(path.name == name)
      #expect(path.selectorDescription.hasSuffix(name))
      _ = path.read()
    }
    #expect(app.value("form.metric") == .string("heartRate"))
    #expect(app.value("dashboard.summary") == .none)
    await app.shutDown()
  }

  @Test func subscribersOfOnePathShareOneSelectorAndSeeOnlyChanges() async throws {
    let app = try await simulatedApp()
    let path = try #require(app.paths["login.email"])
    let cell = app.launch.login.cell
    let before = cell.selectorCount
    let log = DeliveryLog()
    var subscriptions: [StateSubscription] = []
    for _ in 0..<100 {
      subscriptions.append(path.subscribe { value, version in log.record(value, version) })
    }
    #expect(cell.selectorCount == before + 1)
    app.setLoginFields(email: "ada@example.com")
    app.setLoginFields(password: "x")  // another path's value: not delivered here
    cell.deliverPendingMainActorChanges()
    #expect(log.values == Array(repeating: .string("ada@example.com"), count: 100))
    let changes = DeliveryLog()
    let direct = path.subscribe(changes: { changes.record($0.value, $0.version) })
    #expect(cell.selectorCount == before + 1)
    app.setLoginFields(email: "grace@example.com")
    cell.deliverPendingMainActorChanges()
    #expect(changes.values == [.string("grace@example.com")])
    direct.cancel()
    for subscription in subscriptions { subscription.cancel() }
    #expect(cell.selectorCount == before)
    await app.shutDown()
  }

  @Test func aRelaunchRebuildsThePaths() async throws {
    let app = try await simulatedApp()
    try await app.login(email: "ada@example.com", password: "correct-horse")
    try await app.relaunch()
    #expect(app.value("auth.state") == .string("authenticated"))
    #expect(app.paths["auth.state"]?.read() == .string("authenticated"))
    await app.shutDown()
  }
}

final class DeliveryLog: Sendable {
  private let entries = Locked<[(ObservedValue, UInt64)]>([])
  var values: [ObservedValue] { entries.withLock { $0.map(\.0) } }
  func record(_ value: ObservedValue, _ version: UInt64) {
    entries.withLock { $0.append((value, version)) }
  }
}
