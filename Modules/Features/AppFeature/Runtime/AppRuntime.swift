import AuthFeature
import DashboardFeature
import FormsFeature
import Foundation
import HealthDomain
import WeftCore
import WeftNetworking
import WeftPersistence
import WeftRuntime
import WeftSimulation

/// The whole app, built for one configuration: the one composition root the simulator, the
/// tests and an app's `main` use.
///
/// ```swift
/// let app = try await AppRuntime.build(.simulated(seed: 7))
/// try await app.login(email: "ada@example.com", password: "correct-horse")
/// app.paths["auth.state"]!.read()                  // .string("authenticated")
/// try await app.openDashboard(range: .week)
/// app.paths["dashboard.summary.totalSteps"]!.read() // .double(12000)
/// try await app.setNetwork(online: false)
/// try await app.setHealthForm(metric: .steps, value: "500")
/// _ = try await app.submitHealthForm()
/// try await app.setNetwork(online: true)           // the outbox drains
/// await app.shutDown()
/// ```
///
/// On WeftRuntime's deterministic runtime (weft-sim, or tests run by `DeterministicTestHost`)
/// every action is `async` and returns once its effects have run (with `autoSettle`, the
/// default): the runtime runs every task and fires every timer until the app is idle (see
/// `settle()`). Off the runtime (the live configuration) an action returns once it has
/// started its work. Misuse comes back as an `AppRuntimeError`, never a trap.
///
/// # Performance
/// Actions cost what the features do plus settling: the jobs and timers the runtime runs.
/// Paths are built once per launch; each keeps one selector.
///
/// - Note: Isolation: `@MainActor`. Clients and services run on their own isolation.
/// - Complexity: each action costs its work plus settling; paths are built once per launch.
@MainActor
public final class AppRuntime {
  /// The configuration's dependencies.
  public let dependencies: AppDependencies
  /// The current launch: every client and service.
  public private(set) var launch: AppLaunch
  /// Every observable value by dotted path, for the current launch.
  public private(set) var paths: [String: ObservablePath]
  /// How many times the app was launched (1 after `build`).
  public private(set) var launchCount = 1
  /// Whether each action settles before returning (default true; only on the deterministic
  /// runtime). With false, actions return once their work is started; call `settle()` or
  /// `advanceClock(by:)`.
  public var autoSettle = true

  private var online = true

  private init(dependencies: AppDependencies, launch: AppLaunch) {
    self.dependencies = dependencies
    self.launch = launch
    self.paths = launch.makePaths().merging(Self.backendPaths(dependencies)) { app, _ in app }
  }

  /// Builds and launches the app for `dependencies`, then (with `autoSettle`) settles the
  /// launch's work (the first sync pass, restoring the realtime connection).
  ///
  /// - Parameter autoSettle: whether actions settle before returning; off when something
  ///   else settles the process once per step (weft-sim's runner).
  /// - Throws: `AppRuntimeError.launch` when the database cannot be opened.
  /// - Complexity: O(1).
  public static func build(
    _ dependencies: AppDependencies, autoSettle: Bool = true
  ) async throws(AppRuntimeError) -> AppRuntime {
    let launch: AppLaunch
    do {
      launch = try await AppLaunch.start(dependencies, online: true, flags: FeatureFlags())
    } catch {
      throw .launch("\(error)")
    }
    let runtime = AppRuntime(dependencies: dependencies, launch: launch)
    runtime.autoSettle = autoSettle
    await launch.begin()
    try await runtime.settleIfAuto()
    return runtime
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

  /// The simulated world, in the simulated configuration.
  public var simulation: SimulationEnvironment? { dependencies.simulation }

  /// The simulated date now (or the real one, live).
  public var now: Date { dependencies.now() }

  // MARK: Settling

  /// Runs the app until it is idle, on the deterministic runtime: every task runs and every
  /// timer fires (latency, retries, backoff, reconnect delays, in deadline order) until no
  /// job is runnable and no timer is pending, within an hour of virtual time. Deterministic
  /// for a seed. Off the runtime (live) there is nothing to drive: it returns at once.
  ///
  /// - Throws: `AppRuntimeError.notIdle` when timers are still pending after an hour of
  ///   virtual time (work that keeps rescheduling itself).
  /// - Complexity: the jobs and timers that run.
  public func settle() async throws(AppRuntimeError) {
    guard let runtime = DeterministicRuntime.current else { return }
    if let next = await runtime.runUntilIdle(within: Self.settleLimit) {
      throw .notIdle(pendingTimers: runtime.pendingTimers.count, next: next)
    }
  }

  /// How much virtual time one `settle()` may run.
  static let settleLimit = Duration.seconds(3_600)

  /// Moves virtual time forward by `duration` on the deterministic runtime, running the
  /// timers that come due on the way (and what each wakes); timers due later stay pending.
  ///
  /// - Throws: `AppRuntimeError.realClock` off the runtime (the live configuration).
  /// - Complexity: the jobs and timers that run.
  public func advanceClock(by duration: Duration) async throws(AppRuntimeError) {
    guard let runtime = DeterministicRuntime.current else { throw .realClock }
    await runtime.advance(by: duration)
  }

  /// Returns once the sync engine (and everything else) is idle: `settle()`.
  ///
  /// - Complexity: the jobs and timers that run.
  public func waitUntilSyncIdle() async throws(AppRuntimeError) {
    try await settle()
  }

  func settleIfAuto() async throws(AppRuntimeError) {
    if autoSettle { try await settle() }
  }

  /// Starts `body` in a new task (the action returns with its work started, as a button
  /// handler does), then settles.
  func run(_ body: @escaping @MainActor () async -> Void) async throws(AppRuntimeError) {
    Task { @MainActor in await body() }
    try await settleIfAuto()
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
    paths = launch.makePaths().merging(Self.backendPaths(dependencies)) { app, _ in app }
    await launch.begin()
    try await settleIfAuto()
  }

  // MARK: Network (simulation)

  /// Takes the network offline or brings it back; coming back requests a sync pass.
  ///
  /// - Complexity: O(1).
  public func setNetwork(online: Bool) async throws(AppRuntimeError) {
    self.online = online
    await launch.setNetwork(online: online)
    try await settleIfAuto()
  }

  /// Sets the simulated latency: `base` plus a seeded uniform share of `jitter`.
  ///
  /// - Complexity: O(1).
  public func setLatency(_ base: Duration, jitter: Duration = .zero) throws(AppRuntimeError) {
    try simulated("network latency").network.setLatency(base, jitter: jitter)
  }

  /// Injects a fault into the simulated network.
  ///
  /// - Complexity: O(1).
  public func injectFault(_ fault: NetworkFaultSpec) throws(AppRuntimeError) {
    try simulated("network fault").network.inject(fault)
  }

  /// Removes every injected fault.
  ///
  /// - Complexity: O(1).
  public func clearFaults() throws(AppRuntimeError) {
    try simulated("network clear").network.clearFaults()
  }

  func simulated(_ action: String) throws(AppRuntimeError) -> SimulationEnvironment {
    guard let simulation = dependencies.simulation else { throw .simulationOnly(action: action) }
    return simulation
  }
}
