import AppFeature
import AuthFeature
import HealthHarness
import Testing
import WeftRuntime

@MainActor
@Suite("Logging in through the simulated app")
struct LoginTests {
  @Test func theRightPasswordSignsInAndGoesHome() async throws {
    let app = try await simulatedApp()
    #expect(app.value("auth.state") == .string("idle"))
    let start = RuntimeClock().now
    try await app.login(email: "ada@example.com", password: "correct-horse")
    #expect(app.value("auth.state") == .string("authenticated"))
    #expect(app.value("auth.isAuthenticated") == .bool(true))
    #expect(app.value("app.user") == .string("ada@example.com"))
    #expect(app.value("app.isAuthenticated") == .bool(true))
    #expect(app.value("app.tab") == .string("dashboard"))
    #expect(app.value("login.password") == .string(""))
    #expect(app.value("app.loading") == .bool(false))
    #expect(app.value("realtime.state") == .string("connected"))
    // 40 ms of latency for the sign-in request, nothing else.
    #expect(app.elapsed(since: start) == .milliseconds(40))
    await app.shutDown()
  }

  @Test func aWrongPasswordClearsThePasswordAndShowsTheError() async throws {
    let app = try await simulatedApp()
    try await app.login(email: "ada@example.com", password: "wrong")
    #expect(app.value("auth.state") == .string("failed"))
    #expect(app.value("auth.error") == .string("invalidCredentials"))
    #expect(app.value("login.email") == .string("ada@example.com"))
    #expect(app.value("login.password") == .string(""))
    #expect(app.value("login.error") == .string(AuthError.invalidCredentials.description))
    #expect(app.value("login.canSubmit") == .bool(false))
    #expect(app.value("app.isAuthenticated") == .bool(false))
    #expect(app.value("app.sheet") == .none)
    app.dismissLoginError()
    #expect(app.value("login.error") == .none)
    await app.shutDown()
  }

  @Test func anUnverifiedEmailPresentsTheVerificationSheet() async throws {
    let app = try await simulatedApp()
    try await app.login(email: "grace@example.com", password: "correct-horse")
    #expect(app.value("auth.error") == .string("emailNotVerified"))
    #expect(app.value("app.sheet") == .string("emailVerification"))
    #expect(
      app.launch.appState.state.presentedSheet == .emailVerification(email: "grace@example.com"))
    try await app.verifyEmail()
    #expect(app.value("app.sheet") == .none)
    try await app.retryAuth()
    #expect(app.value("auth.state") == .string("authenticated"))
    #expect(app.value("app.user") == .string("grace@example.com"))
    await app.shutDown()
  }

  @Test func theButtonIsEnabledOnlyWithBothFields() async throws {
    let app = try await simulatedApp()
    #expect(app.value("login.canSubmit") == .bool(false))
    app.setLoginFields(email: "ada@example.com")
    #expect(app.value("login.canSubmit") == .bool(false))
    app.setLoginFields(password: "correct-horse")
    #expect(app.value("login.canSubmit") == .bool(true))
    try await app.submitLogin()
    #expect(app.value("auth.state") == .string("authenticated"))
    await app.shutDown()
  }

  @Test func aServerFailureCanBeRetried() async throws {
    let app = try await simulatedApp()
    app.injectFault(NetworkFaultSpec(.serverError(status: 503), count: 1, path: "/auth/login"))
    try await app.login(email: "ada@example.com", password: "correct-horse")
    #expect(app.value("auth.error") == .string("network"))
    #expect(app.value("login.error") == .string(AuthError.network("HTTP 503").description))
    try await app.retryAuth()
    #expect(app.value("auth.state") == .string("authenticated"))
    await app.shutDown()
  }
}
