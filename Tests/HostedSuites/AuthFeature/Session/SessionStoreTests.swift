import AuthFeature
import Foundation
import Testing
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
    let migrations = [AuthSchema.createSession(version: 1)]
    let first = try await Database.open(at: path, migrations: migrations)
    try await SessionStore(database: first).save(Fixture.session)
    await first.close()
    let second = try await Database.open(at: path, migrations: migrations)
    #expect(try await SessionStore(database: second).load() == Fixture.session)
    await second.close()
  }
}
