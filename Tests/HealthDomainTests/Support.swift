import Foundation
import HealthDomain
import WeftCore
import WeftNetworking
import WeftPersistence

/// 2024-06-01T12:00:00Z, the reference "now" of every test.
let referenceDate = Date(timeIntervalSince1970: 1_717_243_200)

/// A metric at `reference + offset` seconds, with an id derived from `seed`.
func metric(
  _ seed: Int, _ type: MetricType, _ value: Double, at offset: TimeInterval = 0
) -> HealthMetric {
  HealthMetric(
    id: uuid(seed), type: type, value: value, date: referenceDate.addingTimeInterval(offset),
    notes: nil, createdAt: referenceDate)
}

/// A deterministic UUID: `00000000-0000-0000-0000-<seed in 12 hex digits>`.
func uuid(_ seed: Int) -> UUID {
  let hex = String(seed, radix: 16)
  let padded = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
  return UUID(uuidString: "00000000-0000-0000-0000-\(padded)")!
}

/// A client over a simulated backend on a test clock, with the health coding.
func simulatedClient() -> (HTTPClient, SimulatedTransport) {
  let backend = SimulatedTransport(seed: 1, clock: TestClock())
  let client = HTTPClient(
    baseURL: URL(string: "https://health.test")!, transport: backend, clock: TestClock(),
    coding: HealthAPI.coding, defaultTimeout: nil)
  return (client, backend)
}

/// An in-memory database with the health schema and a fixed outbox clock.
func healthDatabase() async throws -> Database {
  var configuration = Database.Configuration()
  configuration.now = { referenceDate }
  configuration.random = { 0 }
  return try await Database.inMemory(
    migrations: HealthSchema.migrations, configuration: configuration)
}
