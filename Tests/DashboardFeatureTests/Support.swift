import DashboardFeature
import Foundation
import HealthDomain
import Synchronization
import Testing
import WeftCore
import WeftNetworking
import WeftPersistence

/// 2024-06-01T12:00:00Z, the reference "now" of every test.
let referenceDate = Date(timeIntervalSince1970: 1_717_243_200)
let hour: TimeInterval = 3600
let day: TimeInterval = 86_400

/// A deterministic UUID: `00000000-0000-0000-0000-<seed in 12 hex digits>`.
func uuid(_ seed: Int) -> UUID {
  let hex = String(seed, radix: 16)
  return UUID(
    uuidString: "00000000-0000-0000-0000-"
      + String(repeating: "0", count: max(0, 12 - hex.count)) + hex)!
}

/// A metric `offset` seconds from the reference date.
func metric(
  _ seed: Int, _ type: MetricType, _ value: Double, at offset: TimeInterval,
  source: String = HealthMetric.manualEntry
) -> HealthMetric {
  HealthMetric(
    id: uuid(seed), type: type, value: value, date: referenceDate.addingTimeInterval(offset),
    source: source, createdAt: referenceDate)
}

func insight(_ seed: Int, at offset: TimeInterval) -> Insight {
  Insight(
    id: uuid(seed), title: "Insight \(seed)", body: "Body \(seed)",
    date: referenceDate.addingTimeInterval(offset), priority: .medium)
}

/// The backend the tests define: metrics and insights it holds, answering `GET /metrics`
/// by the `from`/`to` query and `GET /insights` by `limit`, newest first.
final class TestBackend: Sendable {
  /// The backend's data and hook, shared with the route handlers.
  private final class Storage: Sendable {
    let data = Mutex<(metrics: [HealthMetric], insights: [Insight])>(([], []))
    /// Called when `GET /metrics` arrives, before it is answered.
    let onMetrics = Mutex<(@Sendable () -> Void)?>(nil)
  }

  let transport: SimulatedTransport
  private let storage = Storage()

  init(clock: TestClock, latency: LatencyModel = .none) {
    transport = SimulatedTransport(seed: 7, clock: clock, latency: latency)
    let storage = self.storage
    transport.route(.get, HealthAPI.Path.metrics) { request in
      storage.onMetrics.withLock { $0 }?()
      let from = request.query[HealthAPI.Query.from].flatMap(HealthAPI.parseQueryDate)!
      let to = request.query[HealthAPI.Query.to].flatMap(HealthAPI.parseQueryDate)!
      let metrics = storage.data.withLock { $0.metrics }.filter { $0.date >= from && $0.date <= to }
      return try .json(metrics.map(HealthAPI.MetricDTO.init), coding: HealthAPI.coding)
    }
    transport.route(.get, HealthAPI.Path.insights) { request in
      let limit = Int(request.query[HealthAPI.Query.limit] ?? "") ?? 5
      let insights = storage.data.withLock { $0.insights }.sorted { $0.date > $1.date }.prefix(
        limit)
      return try .json(insights.map(HealthAPI.InsightDTO.init), coding: HealthAPI.coding)
    }
  }

  func set(metrics: [HealthMetric] = [], insights: [Insight] = []) {
    storage.data.withLock { $0 = (metrics, insights) }
  }

  func whenMetricsRequested(_ body: @escaping @Sendable () -> Void) {
    storage.onMetrics.withLock { $0 = body }
  }
}

/// A dashboard on an in-memory database, a test backend and a test clock.
struct Harness {
  let clock = TestClock()
  let backend: TestBackend
  let database: Database
  let dashboard: DashboardClient

  init(latency: LatencyModel = .none, insightLimit: Int = 5) async throws {
    backend = TestBackend(clock: clock, latency: latency)
    var configuration = Database.Configuration()
    configuration.now = { referenceDate }
    database = try await Database.inMemory(
      migrations: HealthSchema.migrations, configuration: configuration)
    let client = HTTPClient(
      baseURL: URL(string: "https://health.test")!, transport: backend.transport, clock: clock,
      coding: HealthAPI.coding, defaultTimeout: nil)
    dashboard = DashboardClient(
      dependencies: DashboardDependencies(
        database: database, client: client, clock: clock, now: { referenceDate },
        insightLimit: insightLimit))
  }

  func seed(_ metrics: [HealthMetric], insights: [Insight] = []) async throws {
    try await database.write { tx in
      try tx.save(contentsOf: metrics)
      try tx.save(contentsOf: insights)
    }
  }
}

extension DashboardClient {
  /// Waits for the first committed state that satisfies `condition` (the current one
  /// included): an explicit signal from the cell's `changes` stream, never a sleep.
  func waitUntil(_ condition: @Sendable (DashboardState) -> Bool) async -> DashboardState {
    for await snapshot in changes(buffering: .unbounded) where condition(snapshot.state) {
      return snapshot.state
    }
    return state
  }
}
