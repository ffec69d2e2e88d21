import AppFeature
import FormsFeature
import Foundation
import HealthDomain
import WeftCore
import WeftSimulation

/// The app the simulator drives: AppFeature's runtime built with the simulated configuration
/// (AppFeature's one build function), adapted to `SimulatedApp`.
///
/// Every flow step maps to one runtime action; a refused action (an unknown tab, a misused
/// context) becomes a `SimulationError` carrying the app's own message.
///
/// - Note: Isolation: MainActor.
@MainActor
public final class AppSimulation: SimulatedApp {
  /// The runtime being driven.
  public let runtime: AppRuntime
  let monitor: PerformanceMonitor
  private var cachedObservables: [String: SimObservable] = [:]
  private var cachedLaunch = 0
  /// The first settle or clock error not yet taken by the runner.
  private var pendingFailure: SimulationError?

  /// Builds the app with simulated dependencies seeded by `seed`.
  ///
  /// - Throws: `SimulationError` if the app cannot launch.
  public static func make(seed: UInt64) async throws(SimulationError) -> AppSimulation {
    // The process-wide monitor: every cell reports there unless given another, so clients
    // and stores built deep inside the features are counted too.
    let monitor = PerformanceMonitor.shared
    monitor.setEnabled(true)
    monitor.reset()
    // An on-disk database in a fresh temporary folder, so `app.relaunch` restores the
    // session the way a real relaunch would; removed by `shutDown()`, or at exit, SIGINT or
    // SIGTERM, or by the next run after a SIGKILL (see `TemporaryFolders`).
    let folder = try TemporaryFolders.make()
    let dependencies = AppDependencies.simulated(
      seed: seed, databasePath: folder.appendingPathComponent("app.sqlite").path,
      monitor: monitor)
    do throws(AppRuntimeError) {
      let runtime = try await AppRuntime.build(dependencies)
      return AppSimulation(runtime: runtime, monitor: monitor, folder: folder)
    } catch {
      TemporaryFolders.remove(folder)
      throw SimulationError("the app did not launch: \(error)")
    }
  }

  let folder: URL

  init(runtime: AppRuntime, monitor: PerformanceMonitor, folder: URL) {
    self.runtime = runtime
    self.monitor = monitor
    self.folder = folder
  }

  /// Stops the app's work, closes its database and removes its files.
  public func shutDown() async {
    await runtime.shutDown()
    TemporaryFolders.remove(folder)
  }

  public var observablePathNames: [String] { runtime.paths.keys.sorted() }

  public func observable(named path: String) -> SimObservable? {
    if cachedLaunch != runtime.launchCount {
      cachedObservables.removeAll()
      cachedLaunch = runtime.launchCount
    }
    if let cached = cachedObservables[path] { return cached }
    guard let observable = runtime.paths[path] else { return nil }
    let made = SimObservable(
      name: observable.name, selector: observable.selectorDescription,
      read: { SimValue(observable.read()) },
      subscribe: { body in observable.subscribe { value, version in body(SimValue(value), version) }
      })
    cachedObservables[path] = made
    return made
  }

  public func perform(_ step: StepKind) async throws(SimulationError) {
    do throws(AppRuntimeError) {
      try await perform(runtimeStep: step)
    } catch {
      throw SimulationError(error.description)
    }
  }

  // One case per flow command; the flow language's catalog and this switch cover the same
  // list (a test checks every command reaches the app).
  // swiftlint:disable:next cyclomatic_complexity
  private func perform(runtimeStep step: StepKind) async throws(AppRuntimeError) {
    switch step {
    case .login(let email, let password): try await runtime.login(email: email, password: password)
    case .setLoginFields(let email, let password):
      runtime.setLoginFields(email: email, password: password)
    case .submitLogin: try await runtime.submitLogin()
    case .dismissLoginError: runtime.dismissLoginError()
    case .logout: try await runtime.logout()
    case .retryAuth: try await runtime.retryAuth()
    case .expireSession: try await runtime.expireSession()
    case .relaunchApp: try await runtime.relaunch()
    case .verifyEmail: try await runtime.verifyEmail()
    case .openDashboard(let range): try await runtime.openDashboard(range: range.map(Self.range))
    case .setDashboardRange(let range): try await runtime.setDashboardRange(Self.range(range))
    case .refreshDashboard: try await runtime.refreshDashboard()
    case .setHealthForm(let fields):
      await runtime.setHealthForm(
        metric: fields.metric.flatMap { MetricType(rawValue: $0.rawValue) }, value: fields.value,
        date: fields.date, notes: fields.notes)
    case .submitHealthForm: _ = try await runtime.submitHealthForm()
    case .resetHealthForm: await runtime.resetHealthForm()
    case .setGradeWeights(let weights):
      for weight in weights {
        try runtime.setGradeWeight(
          GradeWeightField(rawValue: weight.field.rawValue) ?? .total,
          of: weight.group.rawValue, to: weight.value)
      }
    case .setGradeBasis(let basis): runtime.setGradeBasis(basis == .percent ? .percent : .points)
    case .contextRequest(let name, let path): _ = try runtime.contextRequest(name, at: path)
    case .contextFlag(let change, let name, let path):
      try runtime.contextFlag(name, set: change == .set, at: path)
    case .contextExecute(let name, let path): try runtime.contextExecute(name, at: path)
    case .contextPost(let name, let path): try runtime.contextPost(name, at: path)
    case .selectTab(let name): try await runtime.selectTab(name)
    case .navigatePush(let route): await runtime.pushNavigation(route)
    case .navigatePop: try await runtime.popNavigation()
    case .presentSheet(let name): try await runtime.presentSheet(name)
    case .dismissSheet: try await runtime.dismissSheet()
    case .dismissAlert: try await runtime.dismissAlert()
    case .setFeature(let name, let enabled): try await runtime.setFeature(name, enabled: enabled)
    case .networkOffline: try await runtime.setNetwork(online: false)
    case .networkOnline: try await runtime.setNetwork(online: true)
    case .networkLatency(let base, let jitter): try runtime.setLatency(base, jitter: jitter)
    case .networkFault(let fault): try runtime.injectFault(Self.fault(fault))
    case .clearNetworkFaults: try runtime.clearFaults()
    case .realtime(.connect): try await runtime.realtimeConnect()
    case .realtime(.disconnect): try await runtime.realtimeDisconnect()
    case .realtime(.drop): try await runtime.realtimeDrop()
    case .pushInsight(let title, let body): try await runtime.pushInsight(title: title, body: body)
    case .advanceClock(let duration): try await runtime.advanceClock(by: duration)
    case .waitSyncIdle: try await runtime.waitUntilSyncIdle()
    case .attachViews, .detachViews, .detachAllViews, .expect, .wait, .log:
      break  // the runner's own steps
    }
  }

  public var launchCount: Int { runtime.launchCount }

  public func takeFailure() -> SimulationError? {
    defer { pendingFailure = nil }
    return pendingFailure
  }

  /// Settles the app; a settle error (stalled work, work rescheduling itself) is kept for
  /// `takeFailure()`, which fails the step.
  public func settle() async {
    do throws(AppRuntimeError) {
      try await runtime.settle()
    } catch {
      if pendingFailure == nil { pendingFailure = SimulationError(error.description) }
    }
    MainActorDeliveries.shared.drainNow()
  }

  public func wait(until predicate: @MainActor () -> Bool, timeout: Duration?) async -> Bool {
    await waitOutcome(until: predicate, timeout: timeout) == .held
  }

  /// Waits in virtual time by jumping the clock from one parked deadline to the next (each
  /// jump runs what comes due, in deadline order) and checking `predicate` after each, so a
  /// wait costs what happens in it, not its length: when nothing is left to run the value
  /// cannot change, and the clock jumps straight to the timeout (1 hour when none is given).
  ///
  /// - Complexity: O(d) jumps, d = deadlines that come due before the condition holds or the
  ///   timeout; each runs the work it wakes.
  public func waitOutcome(
    until predicate: @MainActor () -> Bool, timeout: Duration?
  ) async -> WaitOutcome {
    await settle()
    if let failure = takeFailure() { return .failed(failure) }
    if predicate() { return .held }
    guard let clock = runtime.simulation?.testClock else { return .timedOut(quietAfter: nil) }
    let start = clock.now
    let end = start.advanced(by: timeout ?? .seconds(3_600))
    var quietAfter: Duration?
    while clock.now < end {
      let now = clock.now
      let next = runtime.tracker.status.nextDeadline
      if next == nil, runtime.tracker.status.isIdle { quietAfter = start.duration(to: now) }
      let target = next.map { min(max($0, now), end) } ?? end
      do throws(AppRuntimeError) {
        try await runtime.advanceClock(by: now.duration(to: target))
      } catch {
        return .failed(SimulationError(error.description))
      }
      MainActorDeliveries.shared.drainNow()
      if predicate() { return .held }
    }
    return .timedOut(quietAfter: quietAfter)
  }

  public func counters() -> EngineCounters {
    var counters = EngineCounters()
    for metrics in monitor.allMetrics() {
      counters.commits &+= metrics.commits
      counters.deliveries &+= metrics.deliveries
    }
    counters.deliveryJobs = MainActorDeliveries.shared.jobCount
    counters.sqlStatements = runtime.databaseStatistics.statements
    return counters
  }

  public func latencies() -> Histogram {
    var merged = Histogram()
    // Only components that deliver to the MainActor: endpoints record request latencies in
    // the same monitor, and those are not commit-to-render latencies.
    for metrics in monitor.allMetrics() where metrics.deliveryJobs > 0 {
      merged.merge(metrics.latency)
    }
    return merged
  }

  public func resetLatencies() { monitor.resetLatencies() }

  public func traceLine() -> String {
    observablePathNames.map { "\($0)=\(runtime.paths[$0]!.read())" }.joined(separator: " ")
  }

  static func range(_ range: StepKind.DashboardRange) -> DateRange {
    switch range {
    case .day: .day
    case .week: .week
    case .month: .month
    case .custom(let from, let to): .custom(from: from, to: to)
    }
  }

  static func fault(_ fault: StepKind.NetworkFault) -> NetworkFaultSpec {
    let kind: NetworkFaultSpec.Kind =
      switch fault.kind {
      case .timeout: .timeout
      case .drop: .drop
      case .serverError: .serverError(status: fault.status ?? 503)
      case .rateLimited: .rateLimited(retryAfter: fault.retryAfter ?? .seconds(1))
      case .truncated: .truncated
      case .garbage: .garbage
      }
    return NetworkFaultSpec(kind, rate: fault.rate, count: fault.count, path: fault.path)
  }
}

extension SimValue {
  init(_ value: ObservedValue) {
    switch value {
    case .int(let value): self = .int(value)
    case .double(let value): self = .double(value)
    case .string(let value): self = .string(value)
    case .bool(let value): self = .bool(value)
    case .none: self = .none
    }
  }
}
