import Synchronization

/// Counts commits and deliveries and keeps latency histograms per component (a client, a
/// store, an endpoint), at the cost of one branch when it is disabled; and names the
/// MainActor delivery queue (`deliveries`) the cells reporting to it enqueue on.
///
/// ```swift
/// let monitor = PerformanceMonitor(enabled: true)
/// let counter = Counter(monitor: monitor)        // a client reporting as "Counter"
/// await counter.update { $0.value += 1 }
/// monitor.metrics(for: "Counter")?.commits       // 1
/// ```
///
/// # Owning the engine's state
/// A monitor is an instance its owner holds; `shared` is only the default. An app (or a test)
/// that makes its own monitor — and, to own its MainActor jobs too, its own
/// `MainActorDeliveries` — and hands it to its clients, stores and systems sees only its own
/// counts and deliveries: another app's launch, reset or paused queue in the same process
/// does not touch them.
///
/// ```swift
/// let mine = PerformanceMonitor(enabled: true, deliveries: MainActorDeliveries())
/// let counter = Counter(monitor: mine)           // counted in `mine`, drained by its queue
/// ```
///
/// # Performance
/// Every recording call first reads one relaxed atomic flag; when the monitor is disabled that
/// branch is the whole cost. When enabled, a recording takes one uncontended lock of the
/// component's own metrics (components never share a lock), plus, for latencies, one
/// histogram update.
///
/// - Complexity: recording O(1); see each method.
/// - Note: Isolation: thread-safe; any isolation may record or read.
/// - Note: Allocations: one `ComponentMonitor` per component name, once.
public final class PerformanceMonitor: Sendable {
  /// A process-wide monitor, disabled until someone enables it, on the process-wide queue
  /// `MainActorDeliveries.shared`. Clients report here unless they are given another monitor.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: thread-safe; shared by every component not given a monitor, so a
  ///   `reset()` here clears all of their counts. Tests and apps that read exact counts should
  ///   own a monitor instead.
  public static let shared = PerformanceMonitor(enabled: false, deliveries: .shared)

  private let enabled: Atomic<Bool>
  private let components = Locked<[String: ComponentMonitor]>([:])
  /// The MainActor delivery queue of the cells that report to this monitor: they enqueue
  /// their MainActor changes there, and its `jobCount` counts their jobs.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: thread-safe.
  public let deliveries: MainActorDeliveries

  /// Makes a monitor, enabled or not, whose cells deliver through `deliveries`.
  ///
  /// - Parameters:
  ///   - enabled: whether recordings are kept from the start.
  ///   - deliveries: the MainActor delivery queue of the cells made with this monitor;
  ///     `MainActorDeliveries.shared` unless the owner makes one of its own.
  /// - Complexity: O(1).
  /// - Note: Isolation: any.
  public init(enabled: Bool, deliveries: MainActorDeliveries = .shared) {
    self.enabled = Atomic(enabled)
    self.deliveries = deliveries
  }

  /// Whether recordings are kept. Reading it is one relaxed atomic load.
  public var isEnabled: Bool {
    get { enabled.load(ordering: .relaxed) }
    set { enabled.store(newValue, ordering: .relaxed) }
  }

  /// Turns recording on or off.
  public func setEnabled(_ on: Bool) { enabled.store(on, ordering: .relaxed) }

  /// The recorder for one component, made on first use and kept for the monitor's life.
  ///
  /// - Complexity: O(1) expected (a dictionary lookup under a lock); callers on hot paths
  ///   keep the returned object.
  public func component(named name: String) -> ComponentMonitor {
    components.withLock { table in
      if let existing = table[name] { return existing }
      let made = ComponentMonitor(name: name, monitor: self)
      table[name] = made
      return made
    }
  }

  /// The metrics recorded for `name` so far, or `nil` if it never reported.
  public func metrics(for name: String) -> ComponentMetrics? {
    components.withLock { $0[name] }?.metrics
  }

  /// Every component's metrics, sorted by name.
  public func allMetrics() -> [ComponentMetrics] {
    components.withLock { Array($0.values) }.map(\.metrics).sorted { $0.name < $1.name }
  }

  /// Clears every component's counters and histograms (the components stay registered).
  public func reset() {
    for component in components.withLock({ Array($0.values) }) { component.reset() }
  }

  /// Clears every component's latency histogram and keeps the counters, so callers can
  /// read counters as differences and latencies per interval.
  public func resetLatencies() {
    for component in components.withLock({ Array($0.values) }) { component.resetLatency() }
  }
}

/// The counters and latency histogram of one component, as a value.
public struct ComponentMetrics: Sendable, Equatable {
  /// The component's name.
  public var name: String
  /// Committed state changes (one per `update`, however many fields changed).
  public var commits: UInt64 = 0
  /// Subscriber callbacks invoked.
  public var deliveries: UInt64 = 0
  /// Subscribers not called on a commit because their selected value did not change.
  public var skippedDeliveries: UInt64 = 0
  /// MainActor (or other actor) jobs scheduled to deliver coalesced changes.
  public var deliveryJobs: UInt64 = 0
  /// The part of `deliveries` made by MainActor jobs.
  public var mainActorDeliveries: UInt64 = 0
  /// Time the MainActor jobs spent delivering (projecting, comparing and calling their
  /// subscribers), summed: with `mainActorDeliveries`, the fan-out's cost per delivery,
  /// without the hop that scheduled the job.
  public var mainActorDeliveryTime: Duration = .zero
  /// Latencies from commit to delivery (or request to response, for endpoints).
  public var latency = Histogram()

  /// Makes empty metrics for `name`.
  public init(name: String) { self.name = name }
}

/// Records metrics for one component; obtained from `PerformanceMonitor.component(named:)`.
///
/// Every method returns at once, after one atomic load, when the monitor is disabled.
///
/// - Note: Isolation: thread-safe.
public final class ComponentMonitor: Sendable {
  /// The component's name.
  public let name: String
  private let monitor: PerformanceMonitor
  private let state: Locked<ComponentMetrics>

  init(name: String, monitor: PerformanceMonitor) {
    self.name = name
    self.monitor = monitor
    self.state = Locked(ComponentMetrics(name: name))
  }

  /// Whether the owning monitor is recording (one relaxed atomic load).
  @inline(__always) public var isEnabled: Bool { monitor.isEnabled }

  /// Adds to the counters in one lock.
  public func record(
    commits: UInt64 = 0, deliveries: UInt64 = 0, skipped: UInt64 = 0, jobs: UInt64 = 0
  ) {
    guard monitor.isEnabled else { return }
    state.withLock {
      $0.commits &+= commits
      $0.deliveries &+= deliveries
      $0.skippedDeliveries &+= skipped
      $0.deliveryJobs &+= jobs
    }
  }

  /// Records one MainActor delivery job: its deliveries and skips, and the time it spent
  /// delivering them.
  public func recordMainActorJob(deliveries: UInt64, skipped: UInt64, time: Duration) {
    guard monitor.isEnabled else { return }
    state.withLock {
      $0.deliveries &+= deliveries
      $0.skippedDeliveries &+= skipped
      $0.deliveryJobs &+= 1
      $0.mainActorDeliveries &+= deliveries
      $0.mainActorDeliveryTime += time
    }
  }

  /// Records one latency.
  public func recordLatency(_ duration: Duration) {
    guard monitor.isEnabled else { return }
    state.withLock { $0.latency.record(duration) }
  }

  /// The metrics so far.
  public var metrics: ComponentMetrics { state.withLock { $0 } }

  func reset() { state.withLock { $0 = ComponentMetrics(name: name) } }

  func resetLatency() { state.withLock { $0.latency = Histogram() } }
}
