import Foundation
import Testing
import WeftPersistence

/// `PersistenceError` as its users handle it: a statically typed error (`throws(PersistenceError)`)
/// whose `kind` they switch on with a `default:`, and the errors of their own closures, which
/// pass through `write`, `read` and their synchronous forms unchanged.
@Suite struct ErrorKindTests {
  /// What a user's `switch` decides for an error.
  enum Handling: Equatable {
    case startOver, fixTheData, retry
    case report(String)
  }

  static func handling(_ error: PersistenceError) -> Handling {
    switch error.kind {
    case .notADatabase, .corrupt: .startOver
    case .constraintViolation, .decodingFailed: .fixTheData
    case .busy, .cancelled: .retry
    default: .report(error.kind.description)
    }
  }

  @Test func openingAForeignFileIsKindNotADatabase() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("notes.txt")
    try Data(String(repeating: "plain text, no SQLite header. ", count: 200).utf8).write(
      to: URL(fileURLWithPath: path))
    // `Database.open` is `throws(PersistenceError)`: the `do` needs no cast, and this `do`
    // would not compile if it could throw anything else.
    do throws(PersistenceError) {
      _ = try await Database.open(at: path, migrations: TestSchema.all)
      Issue.record("a text file opened as a database")
    } catch {
      #expect(error.kind == .notADatabase)
      #expect(error.path == path)
      #expect(error.table == nil)
      #expect(Self.handling(error) == .startOver)
      #expect(error == .notADatabase(path: path))
    }
  }

  @Test func aDuplicateKeyIsKindConstraintViolation() async throws {
    try await withFileDatabase { database, folder in
      try await database.save(Metric.sample(1))
      do throws(PersistenceError) {
        // A body declared `throws(PersistenceError)` selects the typed `write`.
        try await database.write { (tx) throws(PersistenceError) in
          try tx.execute(
            "INSERT INTO metric (id, kind, value, recordedAt, tags) VALUES (1, 'steps', 1, 0, '[]')"
          )
        }
        Issue.record("a duplicate primary key was inserted")
      } catch {
        #expect(error.kind == .constraintViolation)
        #expect(error.path == folder.file("test.sqlite"))
        #expect(error.table == "metric")
        #expect(error.detail?.contains("UNIQUE constraint failed: metric.id") == true)
        #expect(Self.handling(error) == .fixTheData)
      }
      #expect(try await database.count(Metric.self) == 1)
    }
  }

  @Test func catchMatchesOneKind() async throws {
    let database = try await Database.inMemory(migrations: TestSchema.all)
    await database.close()
    var caught = false
    do {
      _ = try await database.fetchAll(Metric.self)
    } catch PersistenceError.Kind.busy {
      Issue.record("a closed database reported busy")
    } catch PersistenceError.Kind.closed {
      caught = true
    } catch {
      Issue.record("unexpected \(error)")
    }
    #expect(caught)
    // An `any Error` that is not a `PersistenceError` matches no kind.
    let other: any Error = CocoaError(.fileNoSuchFile)
    #expect(!(PersistenceError.Kind.closed ~= other))
  }

  @Test func theOtherKindsFallToDefault() {
    let error = PersistenceError.diskFull(path: "/tmp/x.sqlite")
    #expect(Self.handling(error) == .report("diskFull"))
    #expect(error.kind.description == "diskFull")
    #expect(
      error.description
        == "/tmp/x.sqlite: the disk is full; the transaction was rolled back. Free some space "
        + "and retry.")
    #expect(
      PersistenceError.cancelled(path: "/tmp/x.sqlite").description
        == "/tmp/x.sqlite: the task was cancelled while it waited for a free reader; nothing "
        + "was read.")
    let sqlite = PersistenceError.sqlite(path: "p", code: 1, message: "m", sql: "SELECT 1")
    #expect(sqlite.sqliteCode == 1)
    #expect(sqlite.sql == "SELECT 1")
    #expect(sqlite.detail == "m")
    #expect(PersistenceError.newerSchema(path: "p", found: 3, latestKnown: 2).schemaVersion == 3)
    #expect(PersistenceError.outboxEntryNotFound(path: "p", id: 42).recordID == "42")
  }

  @Test func anOutboxPayloadOfAnotherTypeIsKindDecodingFailed() async throws {
    try await withFileDatabase { database, _ in
      let entry = try await database.write { (tx) throws(PersistenceError) in
        try tx.enqueue(.create, Metric.sample(1), idempotencyKey: "k1")
      }
      do throws(PersistenceError) {
        _ = try entry.decodePayload(as: Int.self)
        Issue.record("a metric decoded as an Int")
      } catch {
        #expect(error.kind == .decodingFailed)
        #expect(error.table == "weft_outbox")
        #expect(error.recordID == String(entry.id))
      }
    }
  }

  struct Refused: Error, Equatable { var reason: String }

  @Test func aClosureErrorReachesTheCallerUnchanged() async throws {
    try await withFileDatabase { database, _ in
      await #expect(throws: Refused(reason: "over quota")) {
        try await database.write { tx in
          try tx.save(Metric.sample(1))
          throw Refused(reason: "over quota")
        }
      }
      // The transaction was rolled back.
      let count = try await database.count(Metric.self)
      #expect(count == 0)
      await #expect(throws: Refused(reason: "read")) {
        try await database.read { _ in throw Refused(reason: "read") }
      }
      #expect(throws: Refused(reason: "sync read")) {
        try database.readSynchronously { _ in throw Refused(reason: "sync read") }
      }
      #expect(throws: Refused(reason: "sync write")) {
        try database.writeSynchronously { _ in throw Refused(reason: "sync write") }
      }
      // A `PersistenceError` thrown inside an untyped body also arrives as it is.
      await #expect(throws: PersistenceError.self) {
        try await database.write { tx in
          try tx.execute(sql: "INSERT INTO nowhere VALUES (1)")
          throw Refused(reason: "unreached")
        }
      }
    }
  }

  /// Compiles only if every call in it throws `PersistenceError` and nothing else.
  static func saveTwoAndCount(_ database: Database) async throws(PersistenceError) -> Int {
    try await database.write { (tx) throws(PersistenceError) in
      try tx.save(Metric.sample(1))
    }
    try database.writeSynchronously { (tx) throws(PersistenceError) in
      try tx.save(Metric.sample(2))
    }
    let synchronous = try database.readSynchronously { (db) throws(PersistenceError) in
      try db.count(Metric.self)
    }
    let asynchronous = try await database.read { (db) throws(PersistenceError) in
      try db.count(Metric.self)
    }
    #expect(synchronous == asynchronous)
    try await database.save(Metric.sample(3))
    return try await database.count(Metric.self)
  }

  @Test func typedBodiesMakeTypedCalls() async throws {
    try await withFileDatabase { database, _ in
      let count = try await Self.saveTwoAndCount(database)
      #expect(count == 3)
    }
  }
}
