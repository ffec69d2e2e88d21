import Foundation
import Testing
import WeftPersistence

#if canImport(Glibc)
import Glibc
#endif

/// Each failure a user can meet gives a typed error naming the file, table or record, with
/// a fix — and never a crash. The wording is API: these tests pin it.
@Suite struct PersistenceErrorTests {
  @Test func aForeignFileIsNotADatabase() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.txt")
    try Data(String(repeating: "this is not a database. ", count: 200).utf8).write(
      to: URL(fileURLWithPath: path))
    await #expect(throws: PersistenceError.notADatabase(path: path)) {
      try await Database.open(at: path, migrations: TestSchema.all)
    }
    #expect(
      PersistenceError.notADatabase(path: path).description
        == "\(path) is not an SQLite database: the file exists but has another format. Check "
        + "the path, or move the file aside to start a new database.")
  }

  /// Makes a database with 200 metrics, closes it, and returns its path.
  static func makeDatabase(in folder: TemporaryFolder) async throws -> String {
    let path = folder.file("health.sqlite")
    let database = try await Database.open(at: path, migrations: TestSchema.all)
    try await database.write { tx in
      try tx.save(
        contentsOf: (1...200).map { Metric.sample($0, note: String(repeating: "n", count: 200)) })
    }
    await database.close()
    return path
  }

  static func overwrite(_ path: String, from offset: UInt64, count: Int) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seek(toOffset: offset)
    try handle.write(
      contentsOf: Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }))
    try handle.close()
  }

  @Test func aDamagedSchemaIsCorruptOnOpen() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try await Self.makeDatabase(in: folder)
    try Self.overwrite(path, from: 100, count: 3996)  // page 1 after the header
    await #expect {
      try await Database.open(at: path, migrations: TestSchema.all)
    } throws: { error in
      guard let error = error as? PersistenceError, error.kind == .corrupt else { return false }
      return error.path == path
    }
  }

  @Test func aDamagedTableIsCorruptWhenRead() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try await Self.makeDatabase(in: folder)
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! UInt64
    try Self.overwrite(path, from: 4096 * 3, count: Int(size) - 4096 * 3)
    let database = try await Database.open(at: path, migrations: TestSchema.all)
    let thrown = await #expect(throws: PersistenceError.self) {
      try await database.fetchAll(Metric.self)
    }
    await database.close()
    guard let thrown, thrown.kind == .corrupt, let detail = thrown.detail else {
      Issue.record("expected .corrupt, got \(String(describing: thrown))")
      return
    }
    #expect(thrown.path == path)
    #expect(
      thrown.description
        == "\(path) is corrupt (\(detail)). Restore it from a backup or delete it to start "
        + "over; run integrityCheck() to see the damage.")
  }

  @Test func aReadOnlyLocationIsReported() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path: String
    if geteuid() == 0 {
      // Permissions do not stop root; sysfs refuses new files to everyone.
      path = "/sys/weft-\(UUID().uuidString).sqlite"
    } else {
      let locked = folder.file("locked")
      try FileManager.default.createDirectory(
        atPath: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
      path = locked + "/health.sqlite"
    }
    await #expect(throws: PersistenceError.readOnlyLocation(path: path)) {
      try await Database.open(at: path, migrations: TestSchema.all)
    }
    #expect(
      PersistenceError.readOnlyLocation(path: path).description
        == "\(path) cannot be written: the file or its folder is read-only. Open the database "
        + "in a writable folder (such as Application Support) or fix the permissions.")
  }

  @Test func aMissingFolderCannotOpen() async throws {
    let path = "/nonexistent-\(UUID().uuidString)/health.sqlite"
    await #expect {
      try await Database.open(at: path)
    } throws: { error in
      guard let error = error as? PersistenceError, error.kind == .cannotOpen else {
        return false
      }
      return error.path == path
    }
  }

  @Test func aMissingTableIsASchemaMismatch() async throws {
    try await withFileDatabase(migrations: [TestSchema.createMetric]) { database, folder in
      let path = folder.file("test.sqlite")
      let expected = PersistenceError.schemaMismatch(
        path: path, table: "todo", detail: "the table does not exist")
      await #expect(throws: expected) {
        try await database.save(Todo(id: UUID(), title: "t", done: false))
      }
      await #expect(throws: expected) { try await database.fetchAll(Todo.self) }
      #expect(
        expected.description
          == "\(path): table \"todo\" does not match the code (the table does not exist). Add a "
          + "migration that creates or alters it.")
    }
  }

  @Test func aMissingColumnIsASchemaMismatch() async throws {
    struct Extended: PersistableRecord {
      static let tableName = "metric"
      var id: Int
      var kind: String
      var value: Double
      var recordedAt: Double
      var tags: [String]
      var device: String
    }
    try await withFileDatabase { database, folder in
      await #expect(
        throws: PersistenceError.schemaMismatch(
          path: folder.file("test.sqlite"), table: "metric", detail: "no column \"device\"")
      ) {
        try await database.save(
          Extended(id: 1, kind: "steps", value: 1, recordedAt: 1, tags: [], device: "watch"))
      }
      await #expect(
        throws: PersistenceError.schemaMismatch(
          path: folder.file("test.sqlite"), table: "metric", detail: "no column \"device\"")
      ) {
        try await database.fetchAll(Extended.self, where: Field("device") == "watch")
      }
    }
  }

  @Test func aRowThatDoesNotDecodeNamesTableRecordAndField() async throws {
    let database = try await Database.inMemory(migrations: TestSchema.all)
    try await database.write { tx in
      try tx.execute(
        "INSERT INTO metric (id, kind, value, recordedAt, tags) VALUES (7, 'walking', 1, 0, '[]')")
      try tx.execute(
        "INSERT INTO metric (id, kind, value, recordedAt, tags) VALUES (8, 'steps', 'lots', 0, '[]')"
      )
      try tx.execute(
        "INSERT INTO metric (id, kind, value, recordedAt, tags) VALUES (9, 'steps', 1, 0, '{\"a\":1}')"
      )
    }
    let kind = await #expect(throws: PersistenceError.self) {
      try await database.fetch(Metric.self, id: 7)
    }
    #expect(
      kind
        == .decodingFailed(
          table: "metric", id: "7", codingPath: "kind",
          detail: "Cannot initialize Kind from invalid String value walking"))
    let value = await #expect(throws: PersistenceError.self) {
      try await database.fetchAll(Metric.self, where: Field("id") == 8)
    }
    #expect(
      value
        == .decodingFailed(
          table: "metric", id: "8", codingPath: "value",
          detail: "expected Double, found TEXT 'lots'"))
    #expect(
      value?.description
        == "cannot decode a row of \"metric\" with id 8 at 'value': expected Double, found TEXT "
        + "'lots'. Make the model's field match the column type, or add a migration that "
        + "converts the data.")
    let tags = await #expect(throws: PersistenceError.self) {
      try await database.fetch(Metric.self, id: 9)
    }
    guard let tags, tags.kind == .decodingFailed, tags.recordID == "9" else {
      Issue.record("expected a decoding failure, got \(String(describing: tags))")
      return
    }
    #expect(tags.codingPath == "tags")
  }

  @Test func aBrokenConstraintNamesTableAndRecord() async throws {
    struct Unkind: PersistableRecord {
      static let tableName = "metric"
      var id: Int
      var kind: String?
      var value: Double
      var recordedAt: Double
      var tags: [String]
    }
    try await withFileDatabase { database, folder in
      let path = folder.file("test.sqlite")
      let expected = PersistenceError.constraintViolation(
        path: path, table: "metric", id: "1", detail: "NOT NULL constraint failed: metric.kind")
      await #expect(throws: expected) {
        try await database.save(Unkind(id: 1, kind: nil, value: 1, recordedAt: 0, tags: []))
      }
      #expect(
        expected.description
          == "\(path): a constraint failed on \"metric\" for id 1 (NOT NULL constraint failed: "
          + "metric.kind); the transaction was rolled back. Check for a duplicate key, a missing "
          + "required value or a dangling reference.")
      let count = try await database.count(Metric.self)
      #expect(count == 0)
    }
  }

  @Test func aClosedDatabaseSaysSo() async throws {
    let database = try await Database.inMemory(migrations: TestSchema.all)
    await database.close()
    await #expect(throws: PersistenceError.closed(path: ":memory:")) {
      try await database.count(Metric.self)
    }
    await database.close()
  }
}
