import AppFeature
import Foundation
import HealthDomain
import WeftCore
import WeftNetworking
import WeftRuntime
import WeftSimulation

/// The health app in its simulated world: AppFeature's `AppRuntime`, launched with the
/// simulated configuration (a seeded in-process backend behind a simulated network, a
/// realtime server, virtual time), plus the verbs that drive that world — running the app
/// until idle, moving the clock, network latency and faults, server-side pushes, drops and
/// expiries — and the app's observable paths with the backend's counts.
///
/// ```swift
/// let app = try await SimulatedHealthApp(seed: 7)
/// try await app.login(email: "ada@example.com", password: "correct-horse")
/// app.paths["auth.state"]!.read()                  // .string("authenticated")
/// try await app.openDashboard(range: .week)
/// app.paths["dashboard.summary.totalSteps"]!.read() // .double(12000)
/// try await app.setNetwork(online: false)
/// await app.setHealthForm(metric: .steps, value: "500")
/// _ = try await app.submitHealthForm()
/// try await app.setNetwork(online: true)           // the outbox drains
/// await app.shutDown()
/// ```
///
/// On WeftRuntime's deterministic runtime (weft-sim, or tests run by `DeterministicTestHost`)
/// every action returns once its effects have run (`runsUntilIdleAfterEachAction`, the
/// default): the runtime runs every task and fires every timer until the app is idle (see
/// `runUntilIdle()`). Off the runtime there is nothing to drive: actions return with their
/// work started, as live.
///
/// - Note: Isolation: `@MainActor`. Clients and services run on their own isolation.
/// - Complexity: each action costs its work plus running until idle: the jobs and timers
///   the runtime runs.
@MainActor
public final class SimulatedHealthApp: AppRuntime {
  /// The simulated world: the backend, the network, the realtime server, the clock.
  public let simulation: SimulationEnvironment
  /// Whether each action runs the app until idle before returning (default true; only on
  /// the deterministic runtime). With false, actions return once their work is started;
  /// call `runUntilIdle()` or `advanceClock(by:)` (weft-sim's runner does, once per step).
  public var runsUntilIdleAfterEachAction: Bool
  private var cachedPaths: (launch: Int, paths: [String: ObservablePath])?

  /// How much virtual time one `runUntilIdle()` may run.
  static let idleLimit = Duration.seconds(3_600)

  /// Makes the simulated world seeded by `seed`, launches the app in it, then (with
  /// `runsUntilIdleAfterEachAction`) runs the launch's work until idle (the first sync pass,
  /// restoring the realtime connection).
  ///
  /// - Parameters:
  ///   - seed: seeds latency, faults, ids, backoff jitter.
  ///   - databasePath: a database file (to test persistence across relaunches), or nil for
  ///     memory.
  ///   - start: the simulated date at time zero.
  ///   - latency: the network's base latency.
  ///   - jitter: the network's latency jitter.
  ///   - monitor: the performance monitor (its queue, `monitor.deliveries`, also delivers
  ///     the simulated backend's observable counts, so the app and its backend drain in one
  ///     job).
  ///   - backendFile: where the simulated backend keeps its state between processes, or
  ///     nil for memory only.
  ///   - secrets: where the session token is kept (memory by default).
  ///   - runsUntilIdleAfterEachAction: whether actions run the app until idle before
  ///     returning; off when something else drives the process once per step (weft-sim).
  /// - Throws: `AppRuntimeError.launch` when the database cannot be opened;
  ///   `AppRuntimeError.notIdle` when the launch's work does not end.
  /// - Complexity: O(1) plus seeding the backend and opening the database.
  public init(
    seed: UInt64 = 1, databasePath: String? = nil,
    start: Date = SimulationEnvironment.referenceDate, latency: Duration = .milliseconds(40),
    jitter: Duration = .zero, monitor: PerformanceMonitor = PerformanceMonitor(enabled: false),
    backendFile: URL? = nil, secrets: any SecureStorage = InMemorySecureStorage(),
    runsUntilIdleAfterEachAction: Bool = true
  ) async throws(AppRuntimeError) {
    let environment = SimulationEnvironment(
      seed: seed, start: start, latency: latency, jitter: jitter, backendFile: backendFile,
      deliveries: monitor.deliveries)
    simulation = environment
    self.runsUntilIdleAfterEachAction = runsUntilIdleAfterEachAction
    try await super.init(
      launching: .simulated(
        in: environment, seed: seed, databasePath: databasePath, monitor: monitor,
        secrets: secrets))
    try await awaitActionEffects()
  }

  /// Every observable value by dotted path, for the current launch (rebuilt after a
  /// relaunch: subscriptions made before stop receiving), with the backend's counts
  /// (`backend.records`, `backend.duplicates`, `backend.writes`, `backend.replays`), so a
  /// flow can prove exactly-once delivery.
  ///
  /// - Complexity: O(1); O(p) once per launch, p = paths (about 60).
  public var paths: [String: ObservablePath] {
    if let cachedPaths, cachedPaths.launch == launchCount { return cachedPaths.paths }
    let cell = simulation.server.records
    let backend = [
      ObservablePath("backend.records", cell: cell) { .int($0.records) },
      ObservablePath("backend.duplicates", cell: cell) { .int($0.duplicates) },
      ObservablePath("backend.writes", cell: cell) { .int($0.writes) },
      ObservablePath("backend.replays", cell: cell) { .int($0.replays) },
    ]
    var paths = launch.makePaths()
    for path in backend where paths[path.name] == nil { paths[path.name] = path }
    cachedPaths = (launchCount, paths)
    return paths
  }

  // MARK: Running until idle

  /// Runs the app until it is idle, on the deterministic runtime: every task runs and every
  /// timer fires (latency, retries, backoff, reconnect delays, in deadline order) until no
  /// job is runnable and no timer is pending, within an hour of virtual time. Deterministic
  /// for a seed. Off the runtime there is nothing to drive: it returns at once.
  ///
  /// - Throws: `AppRuntimeError.notIdle` when timers are still pending after an hour of
  ///   virtual time (work that keeps rescheduling itself).
  /// - Complexity: the jobs and timers that run.
  public func runUntilIdle() async throws(AppRuntimeError) {
    guard let runtime = DeterministicRuntime.current else { return }
    if let next = await runtime.runUntilIdle(within: Self.idleLimit) {
      throw .notIdle(pendingTimers: runtime.pendingTimers.count, next: next)
    }
  }

  /// Runs the app until idle when `runsUntilIdleAfterEachAction` is on.
  ///
  /// - Throws: `AppRuntimeError.notIdle` (see `runUntilIdle()`).
  /// - Complexity: the jobs and timers that run.
  public override func awaitActionEffects() async throws(AppRuntimeError) {
    if runsUntilIdleAfterEachAction { try await runUntilIdle() }
  }

  /// Makes the session's token expire now, on the server and in the app: the app goes back
  /// to the login screen with "session expired".
  ///
  /// - Throws: `AppActionError.notAuthenticated` when nobody is signed in.
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public override func expireSession() async throws(AppRuntimeError) {
    if let session = launch.auth.state.session {
      simulation.server.expire(token: session.token)
    }
    try await super.expireSession()
  }

  /// Moves virtual time forward by `duration` on the deterministic runtime, running the
  /// timers that come due on the way (and what each wakes); timers due later stay pending.
  ///
  /// - Throws: `AppRuntimeError.realClock` off the runtime.
  /// - Complexity: the jobs and timers that run.
  public func advanceClock(by duration: Duration) async throws(AppRuntimeError) {
    guard let runtime = DeterministicRuntime.current else { throw .realClock }
    await runtime.advance(by: duration)
  }
}
