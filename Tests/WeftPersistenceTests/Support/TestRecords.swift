import Foundation
import Synchronization
import Testing
import WeftPersistence

/// A health metric, the shape the apps store most.
struct Metric: PersistableRecord, Equatable {
  static let tableName = "metric"

  enum Kind: String, Codable, Sendable { case heartRate, steps, sleep }

  var id: Int
  var kind: Kind
  var value: Double
  var recordedAt: Date
  var note: String?
  var tags: [String]
}

extension Metric {
  static func sample(
    _ id: Int, kind: Kind = .heartRate, value: Double? = nil, note: String? = nil
  )
    -> Metric
  {
    Metric(
      id: id, kind: kind, value: value ?? Double(60 + id % 40),
      recordedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(id) * 60), note: note,
      tags: id.isMultiple(of: 2) ? ["even", "manual"] : ["odd"])
  }
}

enum TestSchema {
  static let createMetric = Migration(1, "create metric") { tx in
    try tx.execute(
      """
      CREATE TABLE metric (
        id INTEGER PRIMARY KEY, kind TEXT NOT NULL, value REAL NOT NULL,
        recordedAt REAL NOT NULL, note TEXT, tags TEXT NOT NULL)
      """)
    try tx.createIndex(on: Metric.self, fields: ["kind", "recordedAt"])
  }

  static let createTodo = Migration(2, "create todo") { tx in
    try tx.execute(
      "CREATE TABLE todo (id TEXT PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL)")
  }

  static let all = [createMetric, createTodo]
}

struct Todo: PersistableRecord, Equatable {
  static let tableName = "todo"
  var id: UUID
  var title: String
  var done: Bool
}

/// A fresh folder under the temporary directory, removed by `remove()`.
struct TemporaryFolder: Sendable {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-persistence-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func file(_ name: String) -> String { path + "/" + name }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A settable wall clock for outbox schedules.
final class TestNow: Sendable {
  private let seconds: Mutex<Double>
  init(_ start: Double = 1_700_000_000) { seconds = Mutex(start) }
  var date: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
  func advance(by delta: Double) { seconds.withLock { $0 += delta } }
}

extension Database.Configuration {
  /// Deterministic time and jitter.
  static func testing(now: TestNow, maximumAttempts: Int = 3) -> Database.Configuration {
    var configuration = Database.Configuration()
    configuration.now = { now.date }
    configuration.random = { 0.5 }
    configuration.outboxPolicy = OutboxPolicy(
      maximumAttempts: maximumAttempts, initialDelay: .seconds(10), multiplier: 2,
      maximumDelay: .seconds(3600), jitter: 0.2, lease: .seconds(60))
    return configuration
  }
}

/// Opens a database in a fresh folder, runs `body`, closes it, and checks that the
/// `Database` object did not outlive the test.
func withFileDatabase(
  migrations: [Migration] = TestSchema.all, configuration: Database.Configuration = .init(),
  _ body: (Database, TemporaryFolder) async throws -> Void
) async throws {
  let folder = try TemporaryFolder()
  defer { folder.remove() }
  weak var weakDatabase: Database?
  do {
    let database = try await Database.open(
      at: folder.file("test.sqlite"), migrations: migrations, configuration: configuration)
    weakDatabase = database
    try await body(database, folder)
    await database.close()
    await database.waitUntilObservationsEnd()
  }
  #expect(weakDatabase == nil, "the Database outlived the test")
}
