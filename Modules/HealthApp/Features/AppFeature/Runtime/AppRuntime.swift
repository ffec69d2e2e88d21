import AuthFeature
import DashboardFeature
import FormsFeature
import Foundation
import HealthDomain
import WeftCore
import WeftNetworking
import WeftPersistence

/// The whole app, built for one configuration: the one composition root an app's `main`,
/// its tests and its harnesses use.
///
/// ```swift
/// let app = try await AppRuntime.build(
///   .live(baseURL: URL(string: "https://api.example.com")!, databasePath: path))
/// try await app.login(email: "ada@example.com", password: "correct-horse")
/// try await app.openDashboard(range: .week)
/// await app.setHealthForm(metric: .steps, value: "500")
/// _ = try await app.submitHealthForm()
/// await app.shutDown()
/// ```
///
/// An action returns once it has started its work, as a button handler does; what it
/// changes shows in the clients' cells (`launch`) as the work runs. This module carries
/// nothing for a simulator: HealthHarness's `SimulatedHealthApp` subclasses it to run the
/// app in a simulated world on virtual time, and overrides `awaitActionEffects()` so each
/// action returns once its effects have run. Misuse comes back as an `AppRuntimeError`,
/// never a trap.
///
/// # Performance
/// Actions cost what the features do.
///
/// - Note: Isolation: `@MainActor`. Clients and services run on their own isolation.
/// - Complexity: each action costs its work.
@MainActor
open class AppRuntime {
  /// The configuration's dependencies.
  public let dependencies: AppDependencies
  /// The current launch: every client and service.
  public private(set) var launch: AppLaunch
  /// How many times the app was launched (1 after `build`).
  public private(set) var launchCount = 1

  private var online = true

  /// Launches the app for `dependencies`: opens the database, restores the session, wires
  /// every client and starts the launch's work (the first sync pass, the realtime
  /// connection when signed in).
  ///
  /// - Throws: `AppRuntimeError.launch` when the database cannot be opened.
  /// - Complexity: O(1) plus opening the database.
  public init(launching dependencies: AppDependencies) async throws(AppRuntimeError) {
    self.dependencies = dependencies
    do {
      launch = try await AppLaunch.start(dependencies, online: true, flags: FeatureFlags())
    } catch {
      throw .launch("\(error)")
    }
    await launch.begin()
  }

  /// Builds and launches the app for `dependencies` (see `init(launching:)`).
  ///
  /// - Throws: `AppRuntimeError.launch` when the database cannot be opened.
  /// - Complexity: O(1) plus opening the database.
  public static func build(
    _ dependencies: AppDependencies
  ) async throws(AppRuntimeError) -> AppRuntime {
    try await AppRuntime(launching: dependencies)
  }

  /// Tears the app down: stops every service, releases and closes the database.
  ///
  /// - Complexity: O(1).
  public func shutDown() async {
    await launch.tearDown()
    await dependencies.database.close()
  }

  // MARK: Counters

  /// The monitor every cell and component reports to.
  public var monitor: PerformanceMonitor { dependencies.monitor }

  /// The database's counters (statements, commits, observation fetches).
  public var databaseStatistics: DatabaseStatistics { launch.database.statistics }

  /// Rows in the outbox (pending and dead-lettered), as last counted.
  public var outboxCount: Int { launch.outbox.state.total }

  /// The date now, from the configuration (the simulated one in a harness).
  public var now: Date { dependencies.now() }

  // MARK: Action effects

  /// What each action awaits once it has started its work: here nothing, so an action
  /// returns with its work started, as a button handler does. A harness that owns time
  /// overrides it (HealthHarness's `SimulatedHealthApp` runs the app until idle).
  ///
  /// - Throws: what the override reports (`AppRuntimeError.notIdle`).
  /// - Complexity: O(1) here.
  open func awaitActionEffects() async throws(AppRuntimeError) {}

  /// Ends the session as expired, as the app does when the server says its token expired:
  /// the app goes back to the login screen with "session expired". (A harness overrides it
  /// to expire the token on its simulated server first.)
  ///
  /// - Throws: `AppActionError.notAuthenticated` when nobody is signed in.
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  open func expireSession() async throws(AppRuntimeError) {
    guard launch.auth.state.session != nil else {
      throw .app(.notAuthenticated(action: "session.expire"))
    }
    do {
      try await launch.auth.endSession(.sessionExpired)
    } catch {
      await launch.appState.setGlobalError(error.description)
    }
    try await awaitActionEffects()
  }

  /// Starts `body` in a new task (the action returns with its work started, as a button
  /// handler does), then awaits the action's effects.
  func run(_ body: @escaping @MainActor () async -> Void) async throws(AppRuntimeError) {
    Task { @MainActor in await body() }
    try await awaitActionEffects()
  }

  // MARK: Relaunching

  /// Tears the app down and launches it again from the same database (reopening a file),
  /// restoring the persisted session; the network and feature flags carry over. Paths are
  /// rebuilt: subscriptions made before stop receiving.
  ///
  /// - Throws: `AppRuntimeError.launch` when the database does not reopen.
  /// - Complexity: O(1).
  public func relaunch() async throws(AppRuntimeError) {
    let flags = launch.appState.state.featureFlags
    await launch.tearDown()
    do {
      launch = try await AppLaunch.start(dependencies, online: online, flags: flags)
    } catch {
      throw .launch("\(error)")
    }
    launchCount += 1
    await launch.begin()
    try await awaitActionEffects()
  }

  // MARK: Network

  /// Takes the network offline or brings it back; coming back requests a sync pass.
  ///
  /// - Complexity: O(1).
  public func setNetwork(online: Bool) async throws(AppRuntimeError) {
    self.online = online
    await launch.setNetwork(online: online)
    try await awaitActionEffects()
  }
}
