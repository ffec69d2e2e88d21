import Foundation
import SimulatorFlow
import WeftCore
import WeftRuntime
import WeftSimulation

/// What every app built from Weft's modules shares under the simulator: settling on virtual
/// time, waits that jump the clock from deadline to deadline, observable paths, and the
/// engine counters and latencies of WeftCore's `PerformanceMonitor`.
///
/// On the deterministic runtime, settled means no runnable job, `clock advance` and `wait`
/// move the runtime's virtual time, and the app carries no simulation code. Off it (a
/// platform without the runtime, or `WEFT_RUNTIME=threaded`), settled means that nothing has
/// committed for a moment of real time — a best effort whose counts vary run to run — and
/// `clock advance` is refused.
///
/// An app conforms to `SimulatedApp` by conforming to `WeftSimulatedApp` and handing its
/// driver over; everything but its commands then comes from here.
///
/// ```swift
/// let driver = WeftAppDriver(
///   runtime: DeterministicRuntime.current, paths: { [notes] in notes.paths })
/// ```
///
/// - Note: Isolation: MainActor, like the views the simulator attaches.
@MainActor
public final class WeftAppDriver {
  /// The deterministic runtime the app runs on, or `nil` on threads.
  public let runtime: DeterministicRuntime?
  /// Where the app's cells report commits, deliveries and latencies; its queue
  /// (`monitor.deliveries`) is the one the driver drains and counts jobs of.
  public let monitor: PerformanceMonitor
  private let paths: @MainActor () -> [String: ObservablePath]
  private let launches: @MainActor () -> Int
  private let sqlStatements: @MainActor () -> UInt64
  /// The launch's path table, read once per launch from `paths`.
  private var table: (launch: Int, paths: [String: ObservablePath])?
  /// Keyed paths made so far in this launch, by path.
  private var keyedObservables: (launch: Int, paths: [String: ObservablePath]) = (0, [:])

  /// Makes a driver.
  ///
  /// - Parameters:
  ///   - runtime: the installed deterministic runtime (`DeterministicRuntime.current`), or
  ///     `nil` on threads.
  ///   - monitor: the monitor the app's cells report to, with the queue they deliver through
  ///     (enabled here). An app that owns one (made fresh for each launch) is counted apart
  ///     from everything else in the process; the default, `.shared`, is enabled and reset
  ///     by the engine before each launch, so launch-time cells are counted.
  ///   - paths: the app's observable paths now. The driver calls it once per launch (again
  ///     after a relaunch, when `launchCount` has moved) and keeps the table, so the closure
  ///     may build every path each time it is called.
  ///   - launchCount: 1, plus 1 per relaunch of the app.
  ///   - sqlStatements: SQL statements executed so far (0 for an app without a database).
  /// - Complexity: O(1).
  public init(
    runtime: DeterministicRuntime?, monitor: PerformanceMonitor = .shared,
    paths: @escaping @MainActor () -> [String: ObservablePath],
    launchCount: @escaping @MainActor () -> Int = { 1 },
    sqlStatements: @escaping @MainActor () -> UInt64 = { 0 }
  ) {
    self.runtime = runtime
    self.monitor = monitor
    self.paths = paths
    self.launches = launchCount
    self.sqlStatements = sqlStatements
    monitor.setEnabled(true)
  }

  /// How many times the app was launched.
  public var launchCount: Int { launches() }

  /// Keyed paths (`room[NAME].unread`) and how to make the path for one key, for values that
  /// appear at run time (a room a step opens). Set it once after making the driver.
  public var keyedPaths: [PathPattern: @MainActor (String) -> ObservablePath?] = [:]

  /// Every observable path and keyed path, sorted.
  ///
  /// - Complexity: O(p log p), p = paths.
  public var observablePathNames: [String] {
    (Array(currentPaths().keys) + keyedPaths.keys.map(\.description)).sorted()
  }

  /// The words of each path declared with `values` (an enumeration's cases), by path.
  ///
  /// - Complexity: O(p), p = paths.
  public var observablePathValues: [String: [String]] {
    currentPaths().compactMapValues(\.values)
  }

  /// The observable named `path`: from the launch's path table, or made once per launch by
  /// the keyed path whose shape it has.
  ///
  /// - Complexity: O(1) amortized; the first call of a launch reads the path table (the
  ///   `paths` closure's cost), the first lookup of a keyed path makes it.
  public func observable(named path: String) -> ObservablePath? {
    if let observable = currentPaths()[path] { return observable }
    let launch = launchCount
    if keyedObservables.launch != launch { keyedObservables = (launch, [:]) }
    if let cached = keyedObservables.paths[path] { return cached }
    guard let observable = keyedPath(named: path) else { return nil }
    keyedObservables.paths[path] = observable
    return observable
  }

  /// The path table of the current launch: the `paths` closure's result, read once per
  /// launch.
  ///
  /// - Complexity: O(1), or the closure's cost on the first call of a launch.
  private func currentPaths() -> [String: ObservablePath] {
    let launch = launchCount
    if let table, table.launch == launch { return table.paths }
    let paths = paths()
    table = (launch, paths)
    return paths
  }

  /// The path for `path` made by the keyed path whose shape it has, if any (and if the app
  /// has that key now).
  private func keyedPath(named path: String) -> ObservablePath? {
    for (pattern, make) in keyedPaths {
      if let key = pattern.key(in: path) { return make(key) }
    }
    return nil
  }

  /// Settles the app: on the runtime, until no job is runnable (timers stay pending); on
  /// threads, until no `RuntimeClock` sleep is in progress and nothing has committed for
  /// 40 ms of real time (at most 10 s).
  ///
  /// - Complexity: the work that runs.
  public func settle() async {
    if let runtime {
      await runtime.settle()
    } else {
      await settleOnThreads()
    }
    monitor.deliveries.drainNow()
  }

  /// Off the runtime: waits until, twice in a row 20 ms apart, no `RuntimeClock` sleep is in
  /// progress (latency, backoff) and the commit count has not moved.
  private func settleOnThreads() async {
    var last = counters().commits
    var quietPolls = 0
    for _ in 0..<500 {
      try? await Task.sleep(for: .milliseconds(20))  // try?: a cancelled wait just ends
      monitor.deliveries.drainNow()
      let now = counters().commits
      quietPolls = now == last && RuntimeClock.sleepsInProgress == 0 ? quietPolls + 1 : 0
      if quietPolls == 2 { return }
      last = now
    }
  }

  /// Nothing fails a settle any more (the runtime's stalls end the process with their own
  /// diagnostic); kept for `SimulatedApp`.
  public func takeFailure() -> SimulationError? { nil }

  /// Advances virtual time by `duration`, running what falls due.
  ///
  /// - Throws: `SimulationError` off the runtime: time is real there.
  public func advanceClock(by duration: Duration) async throws(SimulationError) {
    guard let runtime else {
      throw SimulationError(
        "clock advance needs the deterministic runtime (time is real on threads)", kind: .clock)
    }
    await runtime.advance(by: duration)
    monitor.deliveries.drainNow()
  }

  /// Waits in virtual time by jumping the clock from one parked deadline to the next (each
  /// jump runs what comes due, in deadline order) and checking `predicate` after each, so a
  /// wait costs what happens in it, not its length: when nothing is left to run the value
  /// cannot change, and the clock jumps straight to the timeout (1 hour when none is given).
  /// Off the runtime it checks every 10 ms of real time, up to the timeout (10 s at most).
  ///
  /// - Complexity: O(d) jumps, d = deadlines that come due before the condition holds or the
  ///   timeout; each runs the work it wakes.
  public func waitOutcome(
    until predicate: @MainActor () -> Bool, timeout: Duration?
  ) async -> WaitOutcome {
    await settle()
    if predicate() { return .held }
    guard let runtime else {
      let end = ContinuousClock.now + min(timeout ?? .seconds(10), .seconds(10))
      while ContinuousClock.now < end {
        try? await Task.sleep(for: .milliseconds(10))  // try?: a cancelled wait just ends
        monitor.deliveries.drainNow()
        if predicate() { return .held }
      }
      return .timedOut(quietAfter: nil)
    }
    let start = runtime.now
    let end = start + (timeout ?? .seconds(3_600))
    while runtime.fireNextTimer(upTo: end) {
      await settle()
      if predicate() { return .held }
    }
    let quietAfter = runtime.now - start
    await runtime.advance(by: end - runtime.now)
    return .timedOut(quietAfter: quietAfter)
  }

  /// Cumulative engine counters over every cell reporting to the monitor.
  ///
  /// - Complexity: O(m), m = monitored components.
  public func counters() -> EngineCounters {
    var counters = EngineCounters()
    for metrics in monitor.allMetrics() {
      counters.commits &+= metrics.commits
      counters.deliveries &+= metrics.deliveries
      counters.mainActorDeliveries &+= metrics.mainActorDeliveries
      counters.mainActorDeliveryNanoseconds &+= metrics.mainActorDeliveryTime.nanosecondsClamped
    }
    counters.mainActorJobs = monitor.deliveries.jobCount
    counters.sqlStatements = sqlStatements()
    if let runtime {
      counters.databaseNanoseconds = runtime.serialQueueTime.nanosecondsClamped
    }
    return counters
  }

  /// Commit-to-render latencies of the components that deliver to the MainActor (request
  /// latencies recorded in the same monitor are not commit-to-render latencies).
  ///
  /// - Complexity: O(m).
  public func latencies() -> Histogram {
    var merged = Histogram()
    for metrics in monitor.allMetrics() where metrics.deliveryJobs > 0 {
      merged.merge(metrics.latency)
    }
    return merged
  }

  /// Clears the latency histograms.
  public func resetLatencies() { monitor.resetLatencies() }

  /// Every path's value, sorted by path.
  ///
  /// - Complexity: O(p log p).
  public func traceLine() -> String {
    let current = currentPaths()
    return current.keys.sorted().map {
      "\($0)=\(current[$0]?.readForDisplay() ?? ObservedValue.none.description)"
    }
    .joined(separator: " ")
  }
}

/// An app driven through a `WeftAppDriver`: it provides the driver, the driver provides
/// everything `SimulatedApp` asks but the app's commands.
///
/// - Note: Isolation: MainActor.
@MainActor
public protocol WeftSimulatedApp: SimulatedApp {
  /// The driver of the app's settling, paths and counters.
  var driver: WeftAppDriver { get }
}

extension WeftSimulatedApp {
  public var deliveries: MainActorDeliveries { driver.monitor.deliveries }
  public var observablePathNames: [String] { driver.observablePathNames }
  public var observablePathValues: [String: [String]] { driver.observablePathValues }
  public func observable(named path: String) -> ObservablePath? { driver.observable(named: path) }
  public func settle() async { await driver.settle() }
  public func advanceClock(by duration: Duration) async throws(SimulationError) {
    try await driver.advanceClock(by: duration)
  }
  public func wait(until predicate: @MainActor () -> Bool, timeout: Duration?) async -> Bool {
    await driver.waitOutcome(until: predicate, timeout: timeout) == .held
  }
  public func waitOutcome(
    until predicate: @MainActor () -> Bool, timeout: Duration?
  ) async -> WaitOutcome {
    await driver.waitOutcome(until: predicate, timeout: timeout)
  }
  public var launchCount: Int { driver.launchCount }
  public var pendingTimerCount: Int? { driver.runtime?.pendingTimers.count }
  public func takeFailure() -> SimulationError? { driver.takeFailure() }
  public func counters() -> EngineCounters { driver.counters() }
  public func latencies() -> Histogram { driver.latencies() }
  public func resetLatencies() { driver.resetLatencies() }
  public func traceLine() -> String { driver.traceLine() }
}

extension ObservablePath {
  /// Makes a model that reads the path through WeftObservation's bridge, for
  /// `views N observe PATH via observation`; `nil` for a path made from closures (no state
  /// cell to model).
  var observedModelMaker: (@MainActor @Sendable () -> ObservedPathModel)? {
    open(ObservedPathModelMaker())
  }
}
