import Foundation
import Testing
import WeftPersistence

@Suite struct MigrationTests {
  @Test func migrationsRunOnceInOrderAndReportTheirDuration() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("app.sqlite")
    let first = try await Database.open(at: path, migrations: TestSchema.all)
    #expect(first.migrationRuns.map(\.version) == [1, 2])
    #expect(first.migrationRuns.map(\.name) == ["create metric", "create todo"])
    #expect(first.migrationRuns.allSatisfy { $0.duration > .zero })
    #expect(
      first.migrationRuns[0].description.hasPrefix("migration 1 \"create metric\" took "))
    try await first.save(Metric.sample(1))
    await first.close()

    let third = Migration(3, "add metric.device") { tx in
      try tx.execute("ALTER TABLE metric ADD COLUMN device TEXT")
    }
    let second = try await Database.open(at: path, migrations: TestSchema.all + [third])
    #expect(second.migrationRuns.map(\.version) == [3])
    #expect(try await second.read { try $0.scalar("PRAGMA user_version") } == .integer(3))
    #expect(try await second.fetch(Metric.self, id: 1) == Metric.sample(1))
    await second.close()

    let again = try await Database.open(at: path, migrations: TestSchema.all + [third])
    #expect(again.migrationRuns.isEmpty)
    await again.close()
  }

  @Test func aFailingMigrationIsRolledBackAndNamed() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("app.sqlite")
    struct Boom: Error, CustomStringConvertible {
      var description: String { "boom" }
    }
    let broken = Migration(2, "half done") { tx in
      try tx.execute("CREATE TABLE half (id INTEGER PRIMARY KEY)")
      throw Boom()
    }
    let expected = PersistenceError.migrationFailed(
      path: path, version: 2, name: "half done", detail: "boom")
    await #expect(throws: expected) {
      try await Database.open(at: path, migrations: [TestSchema.createMetric, broken])
    }
    #expect(
      expected.description
        == "\(path): migration 2 \"half done\" failed (boom); it was rolled back and the schema "
        + "stays at version 1. Fix the migration and reopen.")
    let database = try await Database.open(at: path, migrations: [TestSchema.createMetric])
    let state = try await database.read { db in
      (
        try db.scalar("PRAGMA user_version"),
        try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'half'")
      )
    }
    #expect(state.0 == .integer(1))
    #expect(state.1 == .integer(0))
    await database.close()
  }

  /// A file written by a newer app version is refused — and not touched at all.
  @Test func aNewerDatabaseIsRefusedAndUntouched() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("app.sqlite")
    let newer = try await Database.open(at: path, migrations: TestSchema.all)
    try await newer.save(Metric.sample(1))
    await newer.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let modified =
      try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date

    let expected = PersistenceError.newerSchema(path: path, found: 2, latestKnown: 1)
    await #expect(throws: expected) {
      try await Database.open(at: path, migrations: [TestSchema.createMetric])
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(
      try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        == modified)
    #expect(
      expected.description
        == "\(path) has schema version 2 but this code knows versions up to 1: it was written "
        + "by a newer app version. The file was left untouched; update the app, or open a "
        + "different file.")
  }

  @Test func anotherAppsTablesAreRefused() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("other.sqlite")
    let other = try await Database.open(at: path)
    try await other.write { tx in
      try tx.execute("CREATE TABLE contacts (id INTEGER PRIMARY KEY)")
      try tx.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY)")
    }
    await other.close()
    await #expect(
      throws: PersistenceError.schemaMismatch(
        path: path, table: "accounts",
        detail:
          "the file has tables (accounts, contacts) but schema version 0, so no migration of "
          + "this code created them")
    ) {
      try await Database.open(at: path, migrations: TestSchema.all)
    }
  }

  @Test func migrationsMustBeNumberedInOrder() async throws {
    let gap = Migration(3, "gap") { _ in }
    await #expect(
      throws: PersistenceError.invalidMigrations(
        detail: "migration \"gap\" at position 2 has version 3; expected 2")
    ) {
      try await Database.inMemory(migrations: [TestSchema.createMetric, gap])
    }
  }
}
