import Foundation
import Testing
import WeftPersistence

/// UUIDs are stored in one canonical form, upper case (Foundation's `uuidString`), and a row
/// another writer stored under the lower-case form is still the same record.
@Suite struct UUIDCaseTests {
  let id = UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!
  var lower: String { id.uuidString.lowercased() }

  /// A database whose `todo` table holds one row written by the sqlite3 shell with a
  /// lower-case id.
  func databaseWithALowerCaseRow(in folder: TemporaryFolder) async throws -> (Database, String) {
    let path = folder.file("app.sqlite")
    let database = try await Database.open(at: path, migrations: TestSchema.all)
    await database.close()
    try await SQLiteShell.run(
      path, "INSERT INTO todo (id, title, done) VALUES ('\(lower)', 'written elsewhere', 0);")
    return (try await Database.open(at: path, migrations: TestSchema.all), path)
  }

  @Test func weWriteTheCanonicalUpperCaseForm() async throws {
    let database = try await Database.inMemory(migrations: TestSchema.all)
    try await database.save(Todo(id: id, title: "mine", done: false))
    let stored = try await database.read { try $0.scalar("SELECT id FROM todo") }
    #expect(stored == .text("6BA7B810-9DAD-11D1-80B4-00C04FD430C8"))
    await database.close()
  }

  @Test func aLowerCaseRowIsFoundAndUpdatedNotDuplicated() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let (database, path) = try await databaseWithALowerCaseRow(in: folder)

    #expect(
      try await database.fetch(Todo.self, id: id)
        == Todo(id: id, title: "written elsewhere", done: false))

    try await database.save(Todo(id: id, title: "updated here", done: true))
    #expect(try await database.count(Todo.self) == 1)
    #expect(
      try await database.fetch(Todo.self, id: id)
        == Todo(id: id, title: "updated here", done: true))
    // The row now carries the canonical id.
    #expect(
      try await database.read { try $0.scalar("SELECT id FROM todo") }
        == .text(id.uuidString))
    await database.close()
    #expect(
      try await SQLiteShell.run(path, "SELECT id, title, done FROM todo;")
        == "\(id.uuidString)|updated here|1\n")
  }

  @Test func predicatesAndDeletesMatchEitherCase() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let (database, _) = try await databaseWithALowerCaseRow(in: folder)
    let other = UUID()
    try await database.save(Todo(id: other, title: "other", done: false))

    #expect(
      try await database.fetchAll(Todo.self, where: Field("id") == id).map(\.title) == [
        "written elsewhere"
      ])
    #expect(try await database.count(Todo.self, where: Field("id").in([id, other])) == 2)
    #expect(
      try await database.fetchAll(Todo.self, where: Field("id") != id).map(\.id) == [other])
    #expect(try await database.delete(Todo.self, id: id))
    #expect(try await database.fetchAll(Todo.self).map(\.id) == [other])
    await database.close()
  }

  @Test func lookupsByUUIDStillUseTheIndex() async throws {
    let database = try await Database.inMemory(migrations: TestSchema.all)
    let arguments: [DatabaseValue] = [.text(id.uuidString), .text(lower)]
    for sql in [
      "SELECT * FROM \"todo\" WHERE \"id\" IN (?1, ?2)",
      "DELETE FROM \"todo\" WHERE \"id\" IN (?1, ?2)",
      "UPDATE OR IGNORE \"todo\" SET \"id\" = ?1 WHERE \"id\" = ?2 AND \"id\" <> ?1 COLLATE "
        + "BINARY",
    ] {
      let plan = try await database.read { db in
        try db.rows("EXPLAIN QUERY PLAN " + sql, arguments).compactMap { row -> String? in
          if case .text(let detail)? = row["detail"] { return detail }
          return nil
        }
      }
      #expect(plan.contains { $0.hasPrefix("SEARCH todo USING INDEX") }, "\(sql): \(plan)")
      #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(sql): \(plan)")
    }
    await database.close()
  }

  @Test func aNoCaseColumnIsCanonicalisedToo() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("nocase.sqlite")
    let schema = [
      Migration(1, "create todo, case-insensitive id") { tx in
        try tx.execute(
          "CREATE TABLE todo (id TEXT PRIMARY KEY COLLATE NOCASE, title TEXT NOT NULL, "
            + "done INTEGER NOT NULL)")
      }
    ]
    let database = try await Database.open(at: path, migrations: schema)
    await database.close()
    try await SQLiteShell.run(
      path, "INSERT INTO todo (id, title, done) VALUES ('\(lower)', 'written elsewhere', 0);")
    let reopened = try await Database.open(at: path, migrations: schema)
    try await reopened.save(Todo(id: id, title: "updated here", done: true))
    #expect(
      try await reopened.read { try $0.rows("SELECT id, title FROM todo") }.map(\.values)
        == [[.text(id.uuidString), .text("updated here")]])
    await reopened.close()
  }
}
