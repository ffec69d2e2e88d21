import Foundation
import SimulatorFlow
import WeftCore
import WeftRuntime
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
  func observable(named path: String) -> ObservablePath?

  /// The date flows resolve `today` and `now` against (`Flow.ParseOptions.now`). The
  /// default is what `Date()` reads on the deterministic runtime (the flow's `date`, or
  /// `Flow.defaultReferenceDate`, plus virtual time), else `Flow.defaultReferenceDate`.
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

  /// How many timers the app has pending now (sleeps a step started and left for virtual
  /// time to fire), or nil when it cannot tell (the default: not on the deterministic
  /// runtime). A failed `expect` names them: the value may still change once time passes.
  var pendingTimerCount: Int? { get }
}

extension SimulatedApp {
  public func waitOutcome(
    until predicate: @MainActor () -> Bool, timeout: Duration?
  ) async -> WaitOutcome {
    await wait(until: predicate, timeout: timeout) ? .held : .timedOut(quietAfter: nil)
  }

  public var launchCount: Int { 1 }

  public var pendingTimerCount: Int? { nil }

  public var observablePathValues: [String: [String]] { [:] }

  public var now: Date {
    guard let runtime = DeterministicRuntime.current, runtime.answersClockReads else {
      return Flow.defaultReferenceDate
    }
    let (seconds, attoseconds) = runtime.wallClock.components
    return Date(timeIntervalSince1970: Double(seconds) + Double(attoseconds) / 1e18)
  }

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

/// Engine-wide counters, summed over every component of the app. Each keeps its name in
/// `StepMetrics` and in the gate's thresholds (`commits`, `deliveries`, `mainActorJobs`,
/// `sqlStatements`, …).
public struct EngineCounters: Sendable, Equatable {
  /// Commits over all clients and stores.
  public var commits: UInt64 = 0
  /// Subscriber callbacks invoked.
  public var deliveries: UInt64 = 0
  /// Jobs enqueued on the MainActor to deliver changes (`MainActorDeliveries.jobCount`).
  public var mainActorJobs: UInt64 = 0
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
    commits: UInt64 = 0, deliveries: UInt64 = 0, mainActorJobs: UInt64 = 0,
    sqlStatements: UInt64 = 0, mainActorDeliveries: UInt64 = 0,
    mainActorDeliveryNanoseconds: UInt64 = 0, databaseNanoseconds: UInt64 = 0
  ) {
    self.databaseNanoseconds = databaseNanoseconds
    self.commits = commits
    self.deliveries = deliveries
    self.mainActorJobs = mainActorJobs
    self.sqlStatements = sqlStatements
    self.mainActorDeliveries = mainActorDeliveries
    self.mainActorDeliveryNanoseconds = mainActorDeliveryNanoseconds
  }

  /// Makes counters with `mainActorJobs` under its former name.
  @available(*, deprecated, renamed: "init(commits:deliveries:mainActorJobs:sqlStatements:)")
  public init(
    commits: UInt64 = 0, deliveries: UInt64 = 0, deliveryJobs: UInt64, sqlStatements: UInt64 = 0
  ) {
    self.init(
      commits: commits, deliveries: deliveries, mainActorJobs: deliveryJobs,
      sqlStatements: sqlStatements)
  }

  /// The name `mainActorJobs` had before it took the report's and the gate's name.
  @available(*, deprecated, renamed: "mainActorJobs")
  public var deliveryJobs: UInt64 {
    get { mainActorJobs }
    set { mainActorJobs = newValue }
  }

  /// The difference `self - earlier`, clamped at zero.
  public func since(_ earlier: EngineCounters) -> EngineCounters {
    func minus(_ now: UInt64, _ then: UInt64) -> UInt64 { now &- min(now, then) }
    return EngineCounters(
      commits: minus(commits, earlier.commits),
      deliveries: minus(deliveries, earlier.deliveries),
      mainActorJobs: minus(mainActorJobs, earlier.mainActorJobs),
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

/// The simulator's observable path: WeftSimulation's `ObservablePath`, the one path type of
/// the simulator and the paths (this name stays for one release).
@available(*, deprecated, renamed: "ObservablePath")
public typealias SimObservable = ObservablePath

/// A step that could not be carried out, with a message that says why — and what kind of
/// failure it was and the error behind it, so a caller can switch on either instead of
/// parsing the text.
///
/// ```swift
/// do {
///   try await plugin.perform(step, on: app)
/// } catch {
///   switch error.kind {
///   case .command: print(error.underlying as? AppRuntimeError as Any)  // the app's own error
///   case .launch, .clock: print(error.message)
///   default: print(error)
///   }
/// }
/// ```
///
/// `Kind` is a struct of static values, not an enum, so a new kind is not a breaking change:
/// switch with a `default`. Two errors are equal when their kind and message are (the
/// underlying error is not compared).
///
/// - Complexity: O(1) to make; `description` is the message.
/// - Note: Isolation: a `Sendable` value.
public struct SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure: where in the simulator it was met.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: a `Sendable` value.
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    /// The kind's name, as the JSON report's `cause` spells it.
    public let name: String

    /// Makes a kind; a plug-in may define its own (`static let quota = Kind("quota")`).
    ///
    /// - Complexity: O(1).
    public init(_ name: String) { self.name = name }

    /// The plug-in could not launch the app.
    public static let launch = Kind("launch")
    /// A plug-in command failed (`underlying` holds the error the command threw).
    public static let command = Kind("command")
    /// Virtual time could not be moved (no deterministic runtime).
    public static let clock = Kind("clock")
    /// The app did not become idle (timers still pending after the time allowed).
    public static let settle = Kind("settle")
    /// A launch option's value was refused.
    public static let option = Kind("option")
    /// A flow statement could not be carried out (a missing path, a misuse of a statement).
    public static let flow = Kind("flow")
    /// Anything else.
    public static let other = Kind("other")

    public var description: String { name }
  }

  /// What kind of failure.
  public var kind: Kind
  /// What went wrong, naming the context path, the name or the value involved.
  public var message: String
  /// The error a plug-in's code threw, as it was thrown (`nil` when the simulator made the
  /// error itself).
  public var underlying: (any Error)?

  /// Makes an error.
  ///
  /// - Complexity: O(1).
  public init(_ message: String, kind: Kind = .other, underlying: (any Error)? = nil) {
    self.message = message
    self.kind = kind
    self.underlying = underlying
  }

  public var description: String { message }

  public static func == (lhs: SimulationError, rhs: SimulationError) -> Bool {
    lhs.kind == rhs.kind && lhs.message == rhs.message
  }
}
