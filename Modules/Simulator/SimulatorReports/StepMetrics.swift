/// What one step (or a whole run) cost and provoked: times, commits, deliveries, renders, jobs,
/// SQL, allocations, latency and memory.
///
/// Counts are exact; times are real (wall and CPU) while network and clock are virtual. Three
/// figures are derived, never stored, so they cannot disagree with their inputs:
/// ``commitsPerSecond``, ``bytesPerAttachedView`` and ``allocationsPerCommit``. JSON carries
/// them too (read-only: decoding ignores them).
///
/// - Complexity: O(1) storage; accumulating is O(1).
/// - Note: Isolation: a value; `Sendable`.
public struct StepMetrics: Sendable, Equatable {
  /// Wall-clock time, in nanoseconds.
  public var wallNanoseconds: UInt64 = 0
  /// CPU time of the process, in nanoseconds.
  public var cpuNanoseconds: UInt64 = 0
  /// Committed state changes.
  public var commits: UInt64 = 0
  /// Subscriber callbacks invoked: WeftCore's `ComponentMetrics.deliveries`, summed over the
  /// app, under the same name from the engine to the gate.
  public var deliveries: UInt64 = 0
  /// Headless views that re-rendered.
  public var viewsRerendered: UInt64 = 0
  /// Views whose selected value did not change, so they were not re-rendered.
  public var viewsSkipped: UInt64 = 0
  /// Re-renders whose new value equalled the previous one: work a better selector would save.
  public var wastedRenders: UInt64 = 0
  /// Jobs enqueued on the MainActor to deliver changes.
  public var mainActorJobs: UInt64 = 0
  /// The part of `deliveries` made by MainActor jobs.
  public var mainActorDeliveries: UInt64 = 0
  /// Time the MainActor jobs spent delivering (projecting, comparing, calling the views), in
  /// nanoseconds: the fan-out's own cost, without the hops around it.
  public var mainActorDeliveryNanoseconds: UInt64 = 0
  /// SQL statements executed.
  public var sqlStatements: UInt64 = 0
  /// Time spent in the database's work, in nanoseconds (on the deterministic runtime: its
  /// SQLite jobs; 0 where not measured). With `mainActorDeliveryNanoseconds`, what the HTML
  /// report splits a step's time into: fan-out, database and the rest.
  public var databaseNanoseconds: UInt64 = 0
  /// Allocations made, or `nil` when the executable does not count them (debug builds, tests;
  /// see ``AllocationCounter``).
  public var allocations: UInt64?
  /// Latency from each commit to the last view it affected re-rendering.
  public var latency: LatencyStats = .empty
  /// Largest resident memory seen during the step, in bytes.
  public var peakMemoryBytes: UInt64 = 0
  /// Views attached when the step ended.
  public var attachedViews: UInt64 = 0
  /// Memory the attached views account for, in bytes: the growth of the heap bytes in use
  /// while attaching them (`MemoryProbe.heapBytesInUse`; resident growth where the allocator
  /// does not say).
  public var viewMemoryBytes: UInt64 = 0

  /// Makes empty metrics; set the fields that were measured.
  public init() {}

  /// The name `deliveries` had before it took the engine's and the gate's name.
  @available(*, deprecated, renamed: "deliveries")
  public var notificationsDelivered: UInt64 {
    get { deliveries }
    set { deliveries = newValue }
  }

  /// Commits per second of wall time; 0 when no time passed.
  public var commitsPerSecond: Double {
    wallNanoseconds == 0 ? 0 : Double(commits) * 1e9 / Double(wallNanoseconds)
  }

  /// `viewMemoryBytes` per attached view, or `nil` when no view is attached.
  public var bytesPerAttachedView: Double? {
    attachedViews == 0 ? nil : Double(viewMemoryBytes) / Double(attachedViews)
  }

  /// Allocations per commit, or `nil` when allocations were not counted or nothing committed.
  public var allocationsPerCommit: Double? {
    guard let allocations, commits > 0 else { return nil }
    return Double(allocations) / Double(commits)
  }
}

extension StepMetrics: Codable {
  private enum CodingKeys: String, CodingKey {
    case wallNanoseconds, cpuNanoseconds, commits, deliveries, viewsRerendered
    case viewsSkipped, wastedRenders, mainActorJobs, sqlStatements, allocations, latency
    case mainActorDeliveries, mainActorDeliveryNanoseconds, databaseNanoseconds
    case peakMemoryBytes, attachedViews, viewMemoryBytes
    case commitsPerSecond, bytesPerAttachedView, allocationsPerCommit
    /// `deliveries` in reports written before 2026-11-28.
    case notificationsDelivered
  }

  /// Decodes the stored fields; the derived ones in the JSON are ignored.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    wallNanoseconds = try container.decode(UInt64.self, forKey: .wallNanoseconds)
    cpuNanoseconds = try container.decode(UInt64.self, forKey: .cpuNanoseconds)
    commits = try container.decode(UInt64.self, forKey: .commits)
    deliveries =
      try container.decodeIfPresent(UInt64.self, forKey: .deliveries)
      ?? container.decode(UInt64.self, forKey: .notificationsDelivered)
    viewsRerendered = try container.decode(UInt64.self, forKey: .viewsRerendered)
    viewsSkipped = try container.decode(UInt64.self, forKey: .viewsSkipped)
    wastedRenders = try container.decode(UInt64.self, forKey: .wastedRenders)
    mainActorJobs = try container.decode(UInt64.self, forKey: .mainActorJobs)
    // Absent from reports written before 2026-11-27.
    mainActorDeliveries =
      try container.decodeIfPresent(UInt64.self, forKey: .mainActorDeliveries) ?? 0
    mainActorDeliveryNanoseconds =
      try container.decodeIfPresent(UInt64.self, forKey: .mainActorDeliveryNanoseconds) ?? 0
    sqlStatements = try container.decode(UInt64.self, forKey: .sqlStatements)
    // Absent from reports written before 2026-11-28.
    databaseNanoseconds =
      try container.decodeIfPresent(UInt64.self, forKey: .databaseNanoseconds) ?? 0
    allocations = try container.decodeIfPresent(UInt64.self, forKey: .allocations)
    latency = try container.decode(LatencyStats.self, forKey: .latency)
    peakMemoryBytes = try container.decode(UInt64.self, forKey: .peakMemoryBytes)
    attachedViews = try container.decode(UInt64.self, forKey: .attachedViews)
    viewMemoryBytes = try container.decode(UInt64.self, forKey: .viewMemoryBytes)
  }

  /// Encodes the stored fields and the derived ones (`commitsPerSecond`, and when defined
  /// `bytesPerAttachedView` and `allocationsPerCommit`).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(wallNanoseconds, forKey: .wallNanoseconds)
    try container.encode(cpuNanoseconds, forKey: .cpuNanoseconds)
    try container.encode(commits, forKey: .commits)
    try container.encode(deliveries, forKey: .deliveries)
    try container.encode(viewsRerendered, forKey: .viewsRerendered)
    try container.encode(viewsSkipped, forKey: .viewsSkipped)
    try container.encode(wastedRenders, forKey: .wastedRenders)
    try container.encode(mainActorJobs, forKey: .mainActorJobs)
    try container.encode(mainActorDeliveries, forKey: .mainActorDeliveries)
    try container.encode(mainActorDeliveryNanoseconds, forKey: .mainActorDeliveryNanoseconds)
    try container.encode(sqlStatements, forKey: .sqlStatements)
    try container.encode(databaseNanoseconds, forKey: .databaseNanoseconds)
    try container.encodeIfPresent(allocations, forKey: .allocations)
    try container.encode(latency, forKey: .latency)
    try container.encode(peakMemoryBytes, forKey: .peakMemoryBytes)
    try container.encode(attachedViews, forKey: .attachedViews)
    try container.encode(viewMemoryBytes, forKey: .viewMemoryBytes)
    try container.encode(commitsPerSecond, forKey: .commitsPerSecond)
    try container.encodeIfPresent(bytesPerAttachedView, forKey: .bytesPerAttachedView)
    try container.encodeIfPresent(allocationsPerCommit, forKey: .allocationsPerCommit)
  }
}
