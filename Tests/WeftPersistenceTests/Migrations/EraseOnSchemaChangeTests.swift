import Foundation
import Testing

@testable import WeftPersistence

@Suite struct EraseOnSchemaChangeTests {
  static func migration(_ sql: String) -> [Migration] {
    [Migration(1, "note") { tx in try tx.execute(sql) }]
  }

  static let original = migration("CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)")
  static let edited = migration(
    "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT, pinned INTEGER NOT NULL DEFAULT 0)")

  static var erasing: Database.Configuration {
    var configuration = Database.Configuration()
    configuration.eraseDatabaseOnSchemaChange = true
    return configuration
  }

  static func columns(_ database: Database) async throws -> [String] {
    try await database.read { db in
      try db.rows("SELECT name FROM pragma_table_info('note') ORDER BY cid").map {
        if case .text(let name) = $0[0] { return name }
        return ""
      }
    }
  }

  static func noteCount(_ database: Database) async throws -> DatabaseValue? {
    try await database.read { try $0.scalar("SELECT count(*) FROM note") }
  }

  @Test func anEditedMigrationErasesAndMigratesAgain() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("dev.sqlite")
    let first = try await Database.open(at: path, migrations: Self.original)
    try await first.write { tx in try tx.execute("INSERT INTO note (text) VALUES ('kept?')") }
    await first.close()

    // Same migrations: nothing is erased.
    let same = try await Database.open(
      at: path, migrations: Self.original, configuration: Self.erasing)
    #expect(try await Self.noteCount(same) == .integer(1))
    #expect(same.migrationRuns.isEmpty)
    await same.close()

    // Without the flag an edited migration does not run again: the old schema stays.
    let stale = try await Database.open(at: path, migrations: Self.edited)
    #expect(try await Self.columns(stale) == ["id", "text"])
    await stale.close()

    // With it, the file is erased and migrated by the edited migration.
    let erased = try await Database.open(
      at: path, migrations: Self.edited, configuration: Self.erasing)
    #expect(try await Self.columns(erased) == ["id", "text", "pinned"])
    #expect(try await Self.noteCount(erased) == .integer(0))
    #expect(erased.migrationRuns.map(\.version) == [1])
    await erased.close()
  }

  @Test func aRemovedMigrationErasesToo() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("dev.sqlite")
    let two =
      Self.original + [Migration(2, "tag") { tx in try tx.execute("CREATE TABLE tag (id)") }]
    await (try await Database.open(at: path, migrations: two)).close()
    let database = try await Database.open(
      at: path, migrations: Self.original, configuration: Self.erasing)
    let tables = try await database.read { db in
      try db.rows("SELECT name FROM sqlite_master WHERE name = 'tag'")
    }
    #expect(tables.isEmpty)
    #expect(database.migrationRuns.map(\.version) == [1])
    await database.close()
  }
}
