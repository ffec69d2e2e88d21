import AuthFeature
import DashboardFeature
import FormsFeature
import Foundation
import HealthDomain
import WeftContexts
import WeftCore
import WeftNetworking
import WeftPersistence

/// One launch of the app: the database, every client and service, and the wiring between
/// them. `AppRuntime` makes one at build time and a new one at each relaunch.
///
/// The wiring:
/// - auth state → `AppState` (user, token, loading), applied in order on one queue;
/// - login routes → `AppState` (home, verification sheet, back to login), same queue;
/// - signed in, network back, offline mode off → a sync pass; a form saved → a sync pass;
/// - signed in → the realtime connection; insights it receives → the database;
/// - a 401 the token cannot survive → the auth service ends the session.
///
/// - Note: Isolation: `@MainActor` (the login store and the grade-weights form are);
///   clients and services run on their own isolation.
///
/// - Complexity: O(1) per wired event; building one opens the database and makes every client.
@MainActor
public final class AppLaunch {
  /// The database.
  public let database: Database
  /// App-wide UI state.
  public let appState: AppStateClient
  /// Signing in and out.
  public let auth: AuthService
  /// The login screen.
  public let login: LoginStore
  /// The outbox counts.
  public let outbox: OutboxClient
  /// The realtime connection's state.
  public let realtime: RealtimeClient
  /// The dashboard.
  public let dashboard: DashboardClient
  /// The health-data form.
  public let form: HealthFormClient
  /// The grade-weights form and its context tree.
  public let grades: GradeWeightsForm
  /// Capabilities (the network).
  public let capabilities: CapabilityManager
  /// Whether the network is reachable.
  public let availability: NetworkAvailability
  /// The HTTP client features use (bearer-authenticated).
  public let api: HTTPClient

  let dependencies: AppDependencies
  let sync: SyncEngine
  let realtimeService: RealtimeService
  let serial: SerialWork
  let gradesRoot: Context
  private var subscriptions: [StateSubscription] = []

  // MARK: Starting

  /// Opens the database, restores the session and wires everything.
  ///
  /// - Parameters:
  ///   - dependencies: the configuration's dependencies.
  ///   - online: whether the network starts reachable.
  ///   - flags: the feature flags (they outlive a launch).
  /// - Throws: what opening the database throws.
  static func start(
    _ dependencies: AppDependencies, online: Bool, flags: FeatureFlags
  ) async throws -> AppLaunch {
    let database = try await dependencies.database.open()
    let sessions = SessionStore(database: database, secrets: dependencies.secrets)
    let restored = await AuthService.restoredState(sessions: sessions, now: dependencies.now)
    return AppLaunch(
      dependencies, database: database, restored: restored, online: online, flags: flags)
  }

  private init(
    _ dependencies: AppDependencies, database: Database, restored: AuthState, online: Bool,
    flags: FeatureFlags
  ) {
    self.dependencies = dependencies
    self.database = database
    let monitor = dependencies.monitor
    let link = AuthLink()
    let tokens = TokenStore(token: restored.session?.token) { _ in
      do {
        try await link.service?.tokenRejected()
      } catch {
        await link.appState?.setGlobalError("\(error)")
      }
      throw AuthError.tokenRejected
    }
    availability = NetworkAvailability(available: online)
    capabilities = CapabilityManager(monitor: monitor)
    api = Self.httpClient(dependencies, availability: availability, bearer: tokens)
    let authHTTP = Self.httpClient(dependencies, availability: availability, bearer: nil)

    var initial = AppState()
    initial.featureFlags = flags
    initial.currentUser = restored.session?.user
    initial.authToken = restored.session?.token
    let appState = AppStateClient(initial, monitor: monitor)
    self.appState = appState
    link.appState = appState
    let serial = SerialWork()
    self.serial = serial

    auth = AuthService(
      initial: restored,
      dependencies: AuthDependencies(
        client: .http(authHTTP),
        sessions: SessionStore(database: database, secrets: dependencies.secrets),
        setToken: { await tokens.setToken($0) }, now: dependencies.now),
      monitor: monitor)
    link.service = auth
    login = LoginStore(auth: auth, monitor: monitor) { route in
      serial.enqueue { await appState.handle(route) }
    }

    outbox = OutboxClient(monitor: monitor)
    sync = SyncEngine(
      SyncEngine.Dependencies(
        database: database, client: api, capabilities: capabilities, appState: appState,
        outbox: outbox, clock: dependencies.clock, now: dependencies.now))

    dashboard = DashboardClient(
      dependencies: DashboardDependencies(
        database: database, client: api, clock: dependencies.clock, now: dependencies.now),
      monitor: monitor)
    realtime = RealtimeClient(monitor: monitor)
    let connection = RealtimeConnection(
      transport: dependencies.realtimeTransport ?? UnavailableRealtime(),
      policy: dependencies.reconnectPolicy, heartbeat: dependencies.heartbeat,
      clock: dependencies.clock, seed: dependencies.seed)
    realtimeService = RealtimeService(connection: connection, client: realtime, database: database)
    form = HealthFormClient(
      database: database, now: dependencies.now, makeID: dependencies.makeID, monitor: monitor)
    gradesRoot = Context.global.createSubcontext(named: "App")
    do {
      grades = try GradeWeightsForm(in: gradesRoot, monitor: monitor)
    } catch {
      preconditionFailure("the default grade-weights form cannot fail to build: \(error)")
    }
    wire()
  }

  private static func httpClient(
    _ dependencies: AppDependencies, availability: NetworkAvailability, bearer: TokenStore?
  ) -> HTTPClient {
    var middleware: [any Middleware] = [
      MetricsMiddleware(monitor: dependencies.monitor),
      RetryMiddleware(policy: dependencies.retryPolicy, seed: dependencies.seed),
      OfflineMiddleware(availability: availability),
    ]
    if let bearer { middleware.append(BearerAuthMiddleware(tokens: bearer)) }
    if dependencies.requestTimeout != nil { middleware.append(TimeoutMiddleware()) }
    return HTTPClient(
      baseURL: dependencies.baseURL, transport: dependencies.transport, clock: dependencies.clock,
      middleware: middleware, coding: HealthAPI.coding,
      defaultTimeout: dependencies.requestTimeout)
  }

  private func wire() {
    let appState = self.appState
    let serial = self.serial
    let sync = self.sync
    let realtimeService = self.realtimeService
    subscriptions.append(
      auth.cell.observeSynchronously(
        WeftCore.StateSelector(id: "app.session") {
          AuthMirror(session: $0.session, isLoading: $0.isLoading)
        }
      ) { change in
        serial.enqueue { await appState.mirror(change.value) }
      })
    subscriptions.append(
      capabilities.cell.observeSynchronously(
        WeftCore.StateSelector(id: "sync.network") { $0.isAvailable(NetworkCapability.name) }
      ) { change in
        if change.value { sync.requestPass() }
      })
    subscriptions.append(
      appState.cell.observeSynchronously(
        WeftCore.StateSelector(id: "sync.gate") {
          $0.isAuthenticated && !$0.featureFlags.isOfflineMode
        }
      ) { change in
        if change.value { sync.requestPass() }
      })
    guard dependencies.realtimeTransport != nil else { return }
    subscriptions.append(
      appState.cell.observeSynchronously(
        WeftCore.StateSelector(id: "realtime.gate") { $0.isAuthenticated }
      ) {
        change in
        if change.value {
          Task { await realtimeService.connectIfNeeded() }
        }
      })
  }

  /// Registers the network capability and starts the work a launch begins with: a sync pass
  /// (it also counts the outbox) and, when signed in, the realtime connection.
  func begin() async {
    await capabilities.register(
      NetworkCapability(transport: dependencies.transport, availability: availability),
      available: availability.isAvailable)
    sync.requestPass()
    if auth.state.isAuthenticated, dependencies.realtimeTransport != nil {
      let realtimeService = self.realtimeService
      Task { await realtimeService.connectIfNeeded() }
    }
  }

  // MARK: Operations

  /// Sets whether the network is reachable (the flag the HTTP client reads and the
  /// capability the sync engine validates).
  func setNetwork(online: Bool) async {
    availability.set(online)
    await capabilities.setAvailability(online, for: NetworkCapability.self)
  }

  /// Loads the dashboard (starting its database observation the first time; it follows
  /// every later write on its own), with `range` if given.
  func loadDashboard(range: DateRange?) async {
    await dashboard.startObserving()
    if let range { await dashboard.select(range) } else { await dashboard.load() }
  }

  /// Submits the health form; once a metric is saved, requests a sync pass. The dashboard
  /// shows the metric through its database observation.
  func submitForm() async -> HealthFormSubmitResult {
    let result = await form.submit()
    if case .success = result { sync.requestPass() }
    return result
  }

  /// The orchestrated logout: every client drops what belonged to the user.
  ///
  /// 1. the realtime connection closes; 2. the auth service signs out (state, token,
  /// persisted session, server revocation); 3. the login screen is cleared; 4. the dashboard
  /// and the health form are reset; 5. the user's local data and unsent changes are
  /// deleted; 6. `AppState` drops user, token, navigation, sheets and alerts.
  func logout() async {
    await appState.setLoading(true)
    try? await realtimeService.disconnect()  // try?: throws only if already disconnected
    var problems: [String] = []
    do {
      try await auth.logout()
    } catch {
      problems.append(error.description)
    }
    login.send(.reset)
    await dashboard.clear()
    await form.reset()
    do {
      try await database.write { tx in
        try tx.execute("DELETE FROM \(HealthMetric.tableName)")
        try tx.execute("DELETE FROM \(Insight.tableName)")
        try tx.execute("DELETE FROM weft_outbox")
      }
    } catch {
      problems.append("the signed-out user's local data could not be deleted: \(error)")
    }
    do {
      try await SyncEngine.recount(syncDependencies)
    } catch {
      problems.append("the outbox could not be counted: \(error)")
    }
    await appState.clearForLogout()
    if !problems.isEmpty {
      await appState.setGlobalError("signed out, but " + problems.joined(separator: "; "))
    }
  }

  var syncDependencies: SyncEngine.Dependencies {
    SyncEngine.Dependencies(
      database: database, client: api, capabilities: capabilities, appState: appState,
      outbox: outbox, clock: dependencies.clock,
      now: dependencies.now)
  }

  /// Requests a sync pass.
  func requestSync() { sync.requestPass() }

  // MARK: Tearing down

  /// Stops everything and releases the database (closing a file, keeping memory).
  func tearDown() async {
    for subscription in subscriptions { subscription.cancel() }
    subscriptions = []
    await realtimeService.shutDown()
    await sync.shutDown()
    await serial.shutDown()
    login.cancel()
    auth.cancel()
    await dashboard.stopObserving()
    await dependencies.database.release(database)
  }
}

/// What `AppState` mirrors from the auth service.
struct AuthMirror: Sendable, Equatable {
  var session: AuthSession?
  var isLoading: Bool
}

extension AppStateClient {
  func mirror(_ auth: AuthMirror) {
    setSession(auth.session)
    setLoading(auth.isLoading)
  }
}

/// Lets the token store's refresh reach the auth service (and the app state, to report a
/// session that could not be deleted) made after it.
final class AuthLink: Sendable {
  private struct Weak {
    weak var service: AuthService?
    weak var appState: AppStateClient?
  }

  private let reference = Locked(Weak())

  /// The auth service, held weakly (it holds the token store that holds this link).
  var service: AuthService? {
    get { reference.withLock { $0.service } }
    set { reference.withLock { $0.service = newValue } }
  }

  /// The app state, held weakly like the service.
  var appState: AppStateClient? {
    get { reference.withLock { $0.appState } }
    set { reference.withLock { $0.appState = newValue } }
  }
}

/// The realtime transport of a configuration without one: every dial is refused.
struct UnavailableRealtime: RealtimeTransport {
  func connect() async throws -> any RealtimeSocket {
    throw ConnectionError.refused("this configuration has no realtime endpoint")
  }
}
