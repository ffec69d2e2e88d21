/// How a flow's cost grows with the number of attached views: one ``SweepPoint`` per size.
///
/// - Note: Isolation: a value; `Sendable`.
public struct SweepReport: Sendable, Equatable, Codable {
  /// The sizes measured, in the order run (ascending by views, as `--views` lists them).
  public var points: [SweepPoint]

  /// Makes a sweep section.
  public init(points: [SweepPoint]) { self.points = points }
}

/// The cost of a flow at one number of attached views.
///
/// - Note: Isolation: a value; `Sendable`.
public struct SweepPoint: Sendable, Equatable, Codable {
  /// Attached views (N).
  public var views: UInt64
  /// CPU time per delivered notification, in nanoseconds: the steps' process CPU less their
  /// idle cost, per view re-rendered (the marginal cost of a delivery, hops included).
  public var perDeliveryNanoseconds: Double
  /// Time the MainActor jobs spent delivering, per MainActor delivery, in nanoseconds: the
  /// fan-out's unit cost without the hops around it, so small sizes are not swamped by a
  /// thread wake's noise. `nil` when the steps made no MainActor delivery (and in reports
  /// written before 2026-11-27).
  public var fanOutPerDeliveryNanoseconds: Double?
  /// CPU time per commit that the idle (unaffected) views add, in nanoseconds: ideally 0.
  public var idleCostPerCommitNanoseconds: Double
  /// Resident memory per attached view, in bytes.
  public var memoryPerViewBytes: Double
  /// Wall time of the run at this size, in nanoseconds.
  public var wallNanoseconds: UInt64
  /// CPU time of the run at this size, in nanoseconds.
  public var cpuNanoseconds: UInt64

  /// Makes a point.
  public init(
    views: UInt64, perDeliveryNanoseconds: Double, idleCostPerCommitNanoseconds: Double,
    memoryPerViewBytes: Double, wallNanoseconds: UInt64, cpuNanoseconds: UInt64,
    fanOutPerDeliveryNanoseconds: Double? = nil
  ) {
    self.views = views
    self.perDeliveryNanoseconds = perDeliveryNanoseconds
    self.fanOutPerDeliveryNanoseconds = fanOutPerDeliveryNanoseconds
    self.idleCostPerCommitNanoseconds = idleCostPerCommitNanoseconds
    self.memoryPerViewBytes = memoryPerViewBytes
    self.wallNanoseconds = wallNanoseconds
    self.cpuNanoseconds = cpuNanoseconds
  }
}
