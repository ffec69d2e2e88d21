import AuthFeature
import Foundation
import Testing
import WeftPersistence

/// Issue 18 item 5: the session store's errors are reported, not dropped.
@Suite("Session storage errors are reported")
struct SessionErrorTests {
  // Old code: a session that could not be read started the app as `idle`, silently.
  @Test func aSavedSessionThatCannotBeReadStartsInAStorageFailure() async throws {
    let database = try await Fixture.database()
    try await database.write { tx in
      try tx.execute("DROP TABLE \(SessionRecord.tableName)")
    }
    let state = await AuthService.restoredState(
      sessions: SessionStore(database: database), now: { Fixture.now })
    guard case .failed(.storage(let detail), retry: nil) = state else {
      Issue.record("expected failed(storage), got \(state)")
      return
    }
    #expect(detail.hasPrefix("the saved session could not be read"))
    await database.close()
  }

  // Old code: the row survived the logout without a word.
  @Test func aSessionThatCannotBeDeletedAtLogoutIsReportedAfterSigningOut() async throws {
    let server = StubServer()
    let database = try await Fixture.database()
    let sessions = SessionStore(database: database)
    try await sessions.save(Fixture.session)
    try await database.write { tx in
      try tx.execute(
        "CREATE TRIGGER keep BEFORE DELETE ON \(SessionRecord.tableName) "
          + "BEGIN SELECT RAISE(ABORT, 'the session stays'); END")
    }
    let tokens = TokenSink()
    tokens.set("token-1")
    let auth = AuthService(
      initial: .authenticated(Fixture.session),
      dependencies: Fixture.dependencies(server: server, database: database, tokens: tokens))
    await #expect(throws: SessionNotCleared.self) { try await auth.logout() }
    #expect(auth.state == .idle)
    #expect(tokens.current == nil)
    #expect(server.logouts == ["token-1"])
    #expect(try await sessions.load() == Fixture.session)
    auth.cancel()
    await database.close()
  }
}
