import Foundation
import WeftCore
import WeftSimulation

/// What `weft-sim` drives: an app built headlessly, its observable values by path, and the
/// engine counters the report is made of.
///
/// An app's plug-in (`SimulatorPlugin`) launches one; its commands run against it, and the
/// engine reads the rest through this protocol. `WeftAppDriver` implements the parts every
/// app built from Weft's modules shares (settling, waiting, counters, latencies) so an app
/// conforms with a few lines; tests drive the runner with small fakes.
///
/// - Note: Isolation: MainActor, like the views the simulator attaches.
@MainActor
public protocol SimulatedApp: AnyObject, SendableMetatype {
  /// Every observable path, sorted; flows are validated against it.
  var observablePathNames: [String] { get }

  /// The words each enumeration-valued path can show (`auth.state`: `idle`, `authenticated`,
  /// …), by path: `check` refuses a comparison with any other word. The default is none.
  var observablePathValues: [String: [String]] { get }

  /// The observable named `path`, or `nil`.
  func observable(named path: String) -> SimObservable?

  /// The date flows resolve `today` and `now` against (`Flow.ParseOptions.now`). The
  /// default is `Flow.defaultReferenceDate`.
  var now: Date { get }

  /// `clock advance DURATION`: advances virtual time by `duration`, running what falls
  /// due in deadline order.
  ///
  /// - Throws: `SimulationError` when the app has no virtual clock or driving it failed.
  func advanceClock(by duration: Duration) async throws(SimulationError)

  /// Drives virtual time until the app is quiescent and pending MainActor deliveries ran.
  func settle() async

  /// Waits in virtual time until `predicate` holds, settling between clock advances; returns
  /// whether it held before `timeout` (virtual) elapsed.
  func wait(until predicate: @MainActor () -> Bool, timeout: Duration?) async -> Bool

  /// `wait(until:timeout:)` that also says why a wait ended without the condition: the
  /// timeout, the app going quiet with nothing left to run, or a failure to drive it. The
  /// runner calls this one; the default maps `wait(until:timeout:)`'s answer.
  func waitOutcome(
    until predicate: @MainActor () -> Bool, timeout: Duration?
  ) async
    -> WaitOutcome

  /// How many times the app was launched (1 at first, +1 per `app.relaunch`). When it
  /// changes, the runner moves its views to the relaunched app's observables. The default
  /// is 1: an app that never relaunches.
  var launchCount: Int { get }

  /// The first error met while settling or advancing time since the last call (a stalled
  /// settle, work that keeps rescheduling itself), then `nil` until the next one. The runner
  /// fails the step it happened in with it. The default is `nil`.
  func takeFailure() -> SimulationError?

  /// Stops the app's work and removes what it wrote for the run (not a `--state-dir`).
  /// The default does nothing.
  func shutDown() async

  /// The MainActor delivery queue the app's cells deliver through: the engine pauses it for
  /// `--deterministic` and drains it at the end of the run. The default is
  /// `MainActorDeliveries.shared`; an app that owns its queue returns it, so that another
  /// app in the process is never paused with it.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor, like the protocol; the queue itself is thread-safe.
  var deliveries: MainActorDeliveries { get }

  /// Cumulative engine counters.
  func counters() -> EngineCounters

  /// Commit-to-delivery latencies recorded since the last `resetLatencies()`.
  func latencies() -> Histogram

  /// Clears the latency histograms.
  func resetLatencies()

  /// Values of every observable path, sorted by path: the state trace line of a step.
  func traceLine() -> String
}

extension SimulatedApp {
  public func waitOutcome(
    until predicate: @MainActor () -> Bool, timeout: Duration?
  ) async -> WaitOutcome {
    await wait(until: predicate, timeout: timeout) ? .held : .timedOut(quietAfter: nil)
  }

  public var launchCount: Int { 1 }

  public var observablePathValues: [String: [String]] { [:] }

  public var now: Date { Flow.defaultReferenceDate }

  public func shutDown() async {}

  public func takeFailure() -> SimulationError? { nil }

  public var deliveries: MainActorDeliveries { .shared }
}

/// How a `wait` step ended.
///
/// - Note: Isolation: a `Sendable` value.
public enum WaitOutcome: Sendable, Equatable {
  /// The condition held within the timeout.
  case held
  /// The virtual timeout elapsed. `quietAfter`, when known, is how far into the wait the
  /// app had nothing left to run (no work in flight, no timer set): from then on nothing
  /// could change the condition, so the clock jumped straight to the timeout.
  case timedOut(quietAfter: Duration?)
  /// Driving the app failed (a stalled settle, work that keeps rescheduling itself).
  case failed(SimulationError)
}

/// Engine-wide counters, summed over every component of the app.
public struct EngineCounters: Sendable, Equatable {
  /// Commits over all clients and stores.
  public var commits: UInt64 = 0
  /// Subscriber callbacks invoked.
  public var deliveries: UInt64 = 0
  /// MainActor (and other actor) delivery jobs.
  public var deliveryJobs: UInt64 = 0
  /// SQL statements executed by the database.
  public var sqlStatements: UInt64 = 0
  /// The part of `deliveries` made by MainActor jobs.
  public var mainActorDeliveries: UInt64 = 0
  /// Time the MainActor jobs spent delivering them, in nanoseconds (WeftCore's
  /// `ComponentMetrics.mainActorDeliveryTime`).
  public var mainActorDeliveryNanoseconds: UInt64 = 0
  /// Time spent in the database's work (on the deterministic runtime: its SQLite jobs), in
  /// nanoseconds; 0 where it is not measured.
  public var databaseNanoseconds: UInt64 = 0

  /// Makes counters.
  public init(
    commits: UInt64 = 0, deliveries: UInt64 = 0, deliveryJobs: UInt64 = 0,
    sqlStatements: UInt64 = 0, mainActorDeliveries: UInt64 = 0,
    mainActorDeliveryNanoseconds: UInt64 = 0, databaseNanoseconds: UInt64 = 0
  ) {
    self.databaseNanoseconds = databaseNanoseconds
    self.commits = commits
    self.deliveries = deliveries
    self.deliveryJobs = deliveryJobs
    self.sqlStatements = sqlStatements
    self.mainActorDeliveries = mainActorDeliveries
    self.mainActorDeliveryNanoseconds = mainActorDeliveryNanoseconds
  }

  /// The difference `self - earlier`, clamped at zero.
  public func since(_ earlier: EngineCounters) -> EngineCounters {
    func minus(_ now: UInt64, _ then: UInt64) -> UInt64 { now &- min(now, then) }
    return EngineCounters(
      commits: minus(commits, earlier.commits),
      deliveries: minus(deliveries, earlier.deliveries),
      deliveryJobs: minus(deliveryJobs, earlier.deliveryJobs),
      sqlStatements: minus(sqlStatements, earlier.sqlStatements),
      mainActorDeliveries: minus(mainActorDeliveries, earlier.mainActorDeliveries),
      mainActorDeliveryNanoseconds: minus(
        mainActorDeliveryNanoseconds, earlier.mainActorDeliveryNanoseconds),
      databaseNanoseconds: minus(databaseNanoseconds, earlier.databaseNanoseconds))
  }
}

/// The value a view observes: WeftSimulation's `ObservedValue`, the one value type of the
/// simulator and the paths (this name stays for one release).
@available(*, deprecated, renamed: "ObservedValue")
public typealias SimValue = ObservedValue

/// One observable path: how to read it now and how to subscribe a view to it.
///
/// A path of an app built from Weft's modules (`SimObservable(_ path: ObservablePath)`) also
/// has `subscribeObserver`: views subscribed through it are WeftCore's subscribers
/// themselves, with no closure in between, which is how a view group attaches a million
/// views. An observable made only from closures (a test's fake) is subscribed through
/// `subscribe`.
///
/// - Note: Isolation: a `Sendable` value; subscribers are called on the MainActor.
public struct SimObservable: Sendable {
  /// The dotted path (`dashboard.summary.totalSteps`).
  public let name: String
  /// The WeftCore selector behind it: what `--explain` names as a re-render's cause.
  public let selector: String
  /// The current value, read synchronously.
  public let read: @Sendable () -> ObservedValue
  /// Subscribes `body` on the MainActor; every subscriber of one path shares one selector.
  public let subscribe:
    @Sendable (_ body: @escaping @MainActor @Sendable (ObservedValue, UInt64) -> Void) ->
      StateSubscription
  /// Subscribes an observer that WeftCore calls directly (`ObservablePath.subscribe(_:)`),
  /// or `nil` when the path has only `subscribe`.
  public let subscribeObserver: (@Sendable (PathObserver) -> StateSubscription)?

  /// Makes a model that reads the path through WeftObservation's bridge, for
  /// `views N observe PATH via observation`; `nil` when the path has no state cell to model.
  let makeObservedModel: (@MainActor @Sendable () -> ObservedPathModel)?

  /// Makes an observable.
  ///
  /// - Complexity: O(1).
  public init(
    name: String, selector: String, read: @escaping @Sendable () -> ObservedValue,
    subscribe:
      @escaping @Sendable (
        _ body: @escaping @MainActor @Sendable (ObservedValue, UInt64) -> Void
      ) -> StateSubscription,
    subscribeObserver: (@Sendable (PathObserver) -> StateSubscription)? = nil
  ) {
    self.init(
      name: name, selector: selector, read: read, subscribe: subscribe,
      subscribeObserver: subscribeObserver, model: nil)
  }

  init(
    name: String, selector: String, read: @escaping @Sendable () -> ObservedValue,
    subscribe:
      @escaping @Sendable (
        _ body: @escaping @MainActor @Sendable (ObservedValue, UInt64) -> Void
      ) -> StateSubscription,
    subscribeObserver: (@Sendable (PathObserver) -> StateSubscription)?,
    model: (@MainActor @Sendable () -> ObservedPathModel)?
  ) {
    self.name = name
    self.selector = selector
    self.read = read
    self.subscribe = subscribe
    self.subscribeObserver = subscribeObserver
    self.makeObservedModel = model
  }
}

/// A step that could not be carried out, with a message that says why.
public struct SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, naming the context path, the name or the value involved.
  public var message: String

  /// Makes an error.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
