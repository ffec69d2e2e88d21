import Foundation
import Testing
import WeftPersistence

/// A file the schema check refuses keeps every byte, and nothing appears beside it.
@Suite struct RefusedFileTests {
  /// Another app's database, in SQLite's default rollback-journal mode (WAL would change
  /// the header's bytes 18 and 19 and create `-wal` and `-shm` files).
  func foreignFile(in folder: TemporaryFolder, userVersion: Int = 0) async throws -> String {
    let path = folder.file("other.sqlite")
    try await SQLiteShell.run(
      path,
      """
      PRAGMA user_version = \(userVersion);
      CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES contacts(id));
      INSERT INTO contacts (name) VALUES ('Ada'), ('Grace');
      INSERT INTO accounts (owner) VALUES (1), (2);
      """)
    #expect(try await SQLiteShell.run(path, "PRAGMA journal_mode;") == "delete\n")
    return path
  }

  @Test func anotherAppsFileIsRefusedAndLeftByteForByte() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try await foreignFile(in: folder)
    let before = try FileSnapshot(path)
    #expect(before.folder == ["other.sqlite"])

    await #expect(
      throws: PersistenceError.schemaMismatch(
        path: path, table: "accounts",
        detail:
          "the file has tables (accounts, contacts) but schema version 0, so no migration of "
          + "this code created them")
    ) {
      try await Database.open(at: path, migrations: TestSchema.all)
    }

    let after = try FileSnapshot(path)
    #expect(after == before, "the refused file changed: before \(before), after \(after)")
    #expect(after.folder == ["other.sqlite"])  // no -wal, -shm or -journal left behind
    #expect(try await SQLiteShell.run(path, "PRAGMA journal_mode;") == "delete\n")
  }

  @Test func aNewerRollbackJournalFileIsRefusedAndLeftByteForByte() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try await foreignFile(in: folder, userVersion: 7)
    let before = try FileSnapshot(path)

    await #expect(
      throws: PersistenceError.newerSchema(path: path, found: 7, latestKnown: 2)
    ) {
      try await Database.open(at: path, migrations: TestSchema.all)
    }

    let after = try FileSnapshot(path)
    #expect(after == before, "the refused file changed: before \(before), after \(after)")
    #expect(after.folder == ["other.sqlite"])
  }
}
