import AuthFeature
import Foundation
import Testing
import WeftCore
import WeftPersistence

@Suite("AuthService")
struct AuthServiceTests {
  @Test func signingInPersistsTheSessionAndHandsOnTheTokenBeforeAuthenticated() async throws {
    let server = StubServer()
    server.answer(Fixture.ada.email, with: .success(Fixture.session))
    let database = try await Fixture.database()
    let tokens = TokenSink()
    weak var released: AuthService?
    do {
      let auth = AuthService(
        dependencies: Fixture.dependencies(server: server, database: database, tokens: tokens))
      released = auth
      let seen = SeenStates()
      let subscription = auth.cell.observeSynchronously(\.self) { change in
        // At the moment the state becomes authenticated, the token is already handed on.
        seen.record(change.value, tokenWasSet: tokens.current != nil)
      }
      await auth.login(Fixture.ada)
      await auth.system.waitUntilIdle()
      #expect(auth.state == .authenticated(Fixture.session))
      #expect(seen.authenticatedWithToken == true)
      #expect(tokens.current == "token-1")
      #expect(try await SessionStore(database: database).load() == Fixture.session)
      subscription.cancel()
      auth.cancel()
    }
    #expect(released == nil)
    await database.close()
  }

  @Test func wrongCredentialsFailAndCannotBeRetried() async throws {
    let server = StubServer()
    server.answer(Fixture.ada.email, with: .failure(.invalidCredentials))
    let database = try await Fixture.database()
    let auth = AuthService(
      dependencies: Fixture.dependencies(server: server, database: database, tokens: TokenSink()))
    await auth.login(Fixture.ada)
    await auth.system.waitUntilIdle()
    #expect(auth.state == .failed(.invalidCredentials, retry: nil))
    await auth.retry()
    await auth.system.waitUntilIdle()
    #expect(server.logins.count == 1)
    #expect(try await SessionStore(database: database).load() == nil)
    auth.cancel()
    await database.close()
  }

  @Test func aNetworkFailureKeepsTheCredentialsForRetry() async throws {
    let server = StubServer()
    server.answer(Fixture.ada.email, with: .failure(.network("offline")))
    let database = try await Fixture.database()
    let auth = AuthService(
      dependencies: Fixture.dependencies(server: server, database: database, tokens: TokenSink()))
    await auth.login(Fixture.ada)
    await auth.system.waitUntilIdle()
    #expect(auth.state == .failed(.network("offline"), retry: Fixture.ada))
    server.answer(Fixture.ada.email, with: .success(Fixture.session))
    await auth.retry()
    await auth.system.waitUntilIdle()
    #expect(auth.state == .authenticated(Fixture.session))
    #expect(server.logins == [Fixture.ada, Fixture.ada])
    auth.cancel()
    await database.close()
  }

  @Test func logoutClearsTheStateTheTokenAndTheSessionAndRevokesTheToken() async throws {
    let server = StubServer()
    let database = try await Fixture.database()
    let sessions = SessionStore(database: database)
    try await sessions.save(Fixture.session)
    let tokens = TokenSink()
    tokens.set("token-1")
    let auth = AuthService(
      initial: .authenticated(Fixture.session),
      dependencies: Fixture.dependencies(server: server, database: database, tokens: tokens))
    try await auth.logout()
    #expect(auth.state == .idle)
    #expect(tokens.current == nil)
    #expect(try await sessions.load() == nil)
    #expect(server.logouts == ["token-1"])
    auth.cancel()
    await database.close()
  }

  @Test func aRejectedTokenEndsTheSessionAsExpiredOnlyPastItsExpiry() async throws {
    let database = try await Fixture.database()
    for (now, expected) in [
      (Fixture.now, AuthError.tokenRejected),
      (Fixture.now.addingTimeInterval(7200), AuthError.sessionExpired),
    ] {
      let tokens = TokenSink()
      tokens.set("token-1")
      let auth = AuthService(
        initial: .authenticated(Fixture.session),
        dependencies: Fixture.dependencies(
          server: StubServer(), database: database, tokens: tokens, now: now))
      try await auth.tokenRejected()
      #expect(auth.state == .failed(expected, retry: nil))
      #expect(tokens.current == nil)
      auth.cancel()
    }
    await database.close()
  }

  @Test func aLaunchRestoresAValidSessionAndDropsAnExpiredOne() async throws {
    let database = try await Fixture.database()
    let sessions = SessionStore(database: database)
    #expect(await AuthService.restoredState(sessions: sessions, now: { Fixture.now }) == .idle)
    try await sessions.save(Fixture.session)
    #expect(
      await AuthService.restoredState(sessions: sessions, now: { Fixture.now })
        == .authenticated(Fixture.session))
    let later = Fixture.now.addingTimeInterval(3600)
    #expect(
      await AuthService.restoredState(sessions: sessions, now: { later })
        == .failed(.sessionExpired, retry: nil))
    #expect(try await sessions.load() == nil)
    await database.close()
  }

  @Test func aSubmittedSignInIsAuthenticatedOnceTheRuntimeSettles() async throws {
    let server = StubServer()
    server.answer(Fixture.ada.email, with: .success(Fixture.session))
    let database = try await Fixture.database()
    let auth = AuthService(
      dependencies: Fixture.dependencies(server: server, database: database, tokens: TokenSink()))
    auth.submit(Fixture.ada)
    #expect(auth.state == .idle)  // submit only started a task
    await settle()
    #expect(auth.state == .authenticated(Fixture.session))
    auth.cancel()
    await database.close()
  }

}

/// Records whether the token was already set when the state became authenticated.
final class SeenStates: Sendable {
  private let value = Locked<Bool?>(nil)
  var authenticatedWithToken: Bool? { value.withLock { $0 } }
  func record(_ state: AuthState, tokenWasSet: Bool) {
    if state.isAuthenticated { value.withLock { $0 = tokenWasSet } }
  }
}
