import AuthFeature
import Foundation
import Testing
import WeftCore
import WeftPersistence

/// Routes recorded from `onRoute`.
final class RouteLog: Sendable {
  private let routes = Locked<[LoginRoute]>([])
  var all: [LoginRoute] { routes.withLock { $0 } }
  func record(_ route: LoginRoute) { routes.withLock { $0.append(route) } }
}

@MainActor
@Suite("LoginStore")
struct LoginStoreTests {
  @MainActor
  struct Harness {
    let server = StubServer()
    let routes = RouteLog()
    let database: Database
    let auth: AuthService
    let login: LoginStore

    init() async throws {
      database = try await Fixture.database()
      auth = AuthService(
        dependencies: Fixture.dependencies(
          server: server, database: database, tokens: TokenSink()))
      let routes = self.routes
      login = LoginStore(auth: auth) { routes.record($0) }
    }

    func submit(email: String, password: String) async {
      login.send(.setEmail(email))
      login.send(.setPassword(password))
      login.send(.submit)
      await settle()
    }

    func finish() async {
      login.cancel()
      auth.cancel()
      await database.close()
    }
  }

  @Test func theButtonNeedsBothFieldsAndNoSignInInProgress() async throws {
    let harness = try await Harness()
    #expect(!harness.login.state.canSubmit)
    harness.login.send(.setEmail("ada@example.com"))
    #expect(!harness.login.state.canSubmit)
    harness.login.send(.setPassword("x"))
    #expect(harness.login.state.canSubmit)
    // While a sign-in is in progress the button is disabled. (The store may already have
    // heard the answer when `send` returns — the auth service runs on its own actor — so the
    // loading state is checked on the reducer.)
    var loading = harness.login.state
    LoginState.reduce(&loading, .action(.submit))
    #expect(loading.isLoading)
    #expect(!loading.canSubmit)
    LoginState.reduce(&loading, .auth(.failed(.network("offline"), retry: nil)))
    #expect(!loading.isLoading)
    #expect(loading.canSubmit)
    await harness.finish()
  }

  @Test func anEmptyFormIsNotSubmitted() async throws {
    let harness = try await Harness()
    harness.login.send(.setEmail("ada@example.com"))
    harness.login.send(.submit)
    await settle()
    #expect(harness.server.logins.isEmpty)
    #expect(harness.login.state.submissions == 0)
    await harness.finish()
  }

  @Test func wrongCredentialsClearThePasswordAndShowTheError() async throws {
    let harness = try await Harness()
    harness.server.answer("ada@example.com", with: .failure(.invalidCredentials))
    await harness.submit(email: "ada@example.com", password: "wrong")
    let state = harness.login.state
    #expect(state.email == "ada@example.com")
    #expect(state.password == "")
    #expect(!state.isLoading)
    #expect(state.errorMessage == AuthError.invalidCredentials.description)
    #expect(harness.routes.all.isEmpty)
    harness.login.send(.dismissError)
    #expect(harness.login.state.errorMessage == nil)
    await harness.finish()
  }

  @Test func anUnverifiedEmailRoutesToTheVerificationSheet() async throws {
    let harness = try await Harness()
    harness.server.answer(
      "grace@example.com", with: .failure(.emailNotVerified(email: "grace@example.com")))
    await harness.submit(email: "grace@example.com", password: "correct-horse")
    #expect(harness.routes.all == [.verifyEmail(email: "grace@example.com")])
    #expect(harness.login.state.password == "correct-horse")
    #expect(
      harness.auth.state
        == .failed(
          .emailNotVerified(email: "grace@example.com"),
          retry: Credentials(email: "grace@example.com", password: "correct-horse")))
    await harness.finish()
  }

  @Test func signingInRoutesHomeAndClearsThePassword() async throws {
    let harness = try await Harness()
    harness.server.answer("ada@example.com", with: .success(Fixture.session))
    await harness.submit(email: "ada@example.com", password: "correct-horse")
    #expect(harness.routes.all == [.home])
    #expect(harness.login.state.password == "")
    #expect(harness.login.state.error == nil)
    await harness.finish()
  }

  @Test func anEndedSessionRoutesBackToLogin() async throws {
    let harness = try await Harness()
    harness.server.answer("ada@example.com", with: .success(Fixture.session))
    await harness.submit(email: "ada@example.com", password: "correct-horse")
    try await harness.auth.endSession(.sessionExpired)
    await settle()
    #expect(harness.routes.all == [.home, .login(reason: .sessionExpired)])
    #expect(harness.login.state.errorMessage == AuthError.sessionExpired.description)
    await harness.finish()
  }

  @Test func resetClearsTheScreenAndTheStoreIsFreed() async throws {
    let harness = try await Harness()
    weak var released: LoginStore?
    do {
      let store = LoginStore(auth: harness.auth)
      released = store
      store.send(.setEmail("a"))
      store.send(.reset)
      #expect(store.state.email == "")
      store.cancel()
    }
    #expect(released == nil)
    await harness.finish()
  }
}
