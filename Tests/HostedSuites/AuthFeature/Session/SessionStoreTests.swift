import AuthFeature
import Foundation
import Testing
import WeftCore
import WeftPersistence

@Suite("SessionStore")
struct SessionStoreTests {
  @Test func savesLoadsReplacesAndClearsTheOneSession() async throws {
    let database = try await Fixture.database()
    let store = SessionStore(database: database)
    #expect(try await store.load() == nil)
    try await store.save(Fixture.session)
    var next = Fixture.session
    next.token = "token-2"
    try await store.save(next)
    #expect(try await store.load() == next)
    #expect(try await database.count(SessionRecord.self) == 1)
    try await store.clear()
    #expect(try await store.load() == nil)
    await database.close()
  }

  @Test func theSessionSurvivesReopeningTheFile() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("auth-\(UUID().uuidString).sqlite").path
    defer {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    let migrations = AuthSchema.migrations(after: 0)
    let secrets = InMemorySecureStorage()
    let first = try await Database.open(at: path, migrations: migrations)
    try await SessionStore(database: first, secrets: secrets).save(Fixture.session)
    await first.close()
    let second = try await Database.open(at: path, migrations: migrations)
    #expect(try await SessionStore(database: second, secrets: secrets).load() == Fixture.session)
    await second.close()
  }

  @Test func theTokenIsInTheSecureStoreAndNotInTheDatabase() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("auth-\(UUID().uuidString).sqlite").path
    defer {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)  // try?: may not exist
      }
    }
    let secrets = InMemorySecureStorage()
    let database = try await Database.open(at: path, migrations: AuthSchema.migrations(after: 0))
    try await SessionStore(database: database, secrets: secrets).save(Fixture.session)
    #expect(try await secrets.readString(SessionStore.tokenKey) == Fixture.session.token)
    let files = try [path, path + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    #expect(files.contains { $0.range(of: Data(Fixture.session.email.utf8)) != nil })
    for bytes in files { #expect(bytes.range(of: Data(Fixture.session.token.utf8)) == nil) }
    await database.close()
  }

  @Test func aRowWhoseTokenIsGoneIsNoSession() async throws {
    let database = try await Fixture.database()
    let secrets = InMemorySecureStorage()
    let store = SessionStore(database: database, secrets: secrets)
    try await store.save(Fixture.session)
    try await secrets.delete(SessionStore.tokenKey)
    #expect(try await store.load() == nil)
    #expect(try await database.count(SessionRecord.self) == 0)
    await database.close()
  }

  /// A database from before the token moved: the migration signs the user out and drops
  /// the column, and the token's bytes are overwritten, not left in a free page.
  @Test func theMigrationRemovesAStoredToken() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("auth-\(UUID().uuidString).sqlite").path
    defer {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)  // try?: may not exist
      }
    }
    let old = try await Database.open(at: path, migrations: [AuthSchema.createSession(version: 1)])
    try await old.write { tx in
      try tx.execute(
        "INSERT INTO auth_session VALUES ('current', 'old-token-secret', 'u', 'a@b.c', 0)")
    }
    await old.close()
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: path)).range(of: Data("old-token-secret".utf8))
        != nil)
    let new = try await Database.open(at: path, migrations: AuthSchema.migrations(after: 0))
    #expect(new.migrationRuns.map(\.name) == ["auth_session without token"])
    #expect(try await new.count(SessionRecord.self) == 0)
    let columns = try await new.read { db in try db.rows("PRAGMA table_info(auth_session)") }
    #expect(!columns.contains { $0[1] == .text("token") })
    await new.close()
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path + suffix))
      #expect(bytes.range(of: Data("old-token-secret".utf8)) == nil, "\(suffix)")
    }
  }
}
