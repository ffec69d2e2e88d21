import AppFeature
import AuthFeature
import DashboardFeature
import HealthHarness
import Testing
import WeftNetworking

@MainActor
@Suite("Lifetimes")
struct LifetimeTests {
  @Test func nothingOutlivesAShutDownApp() async throws {
    weak var runtime: SimulatedHealthApp?
    weak var launch: AppLaunch?
    weak var auth: AuthService?
    weak var login: LoginStore?
    weak var dashboard: DashboardClient?
    weak var appState: AppStateClient?
    do {
      let app = try await simulatedApp()
      try await app.login(email: "ada@example.com", password: "correct-horse")
      try await app.openDashboard()
      try await app.relaunch()
      runtime = app
      launch = app.launch
      auth = app.launch.auth
      login = app.launch.login
      dashboard = app.launch.dashboard
      appState = app.launch.appState
      await app.shutDown()
    }
    #expect(runtime == nil)
    #expect(launch == nil)
    #expect(auth == nil)
    #expect(login == nil)
    #expect(dashboard == nil)
    #expect(appState == nil)
  }
}
