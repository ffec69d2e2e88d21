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
  /// CPU time per delivered notification, in nanoseconds: the fan-out's unit cost.
  public var perDeliveryNanoseconds: Double
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
    memoryPerViewBytes: Double, wallNanoseconds: UInt64, cpuNanoseconds: UInt64
  ) {
    self.views = views
    self.perDeliveryNanoseconds = perDeliveryNanoseconds
    self.idleCostPerCommitNanoseconds = idleCostPerCommitNanoseconds
    self.memoryPerViewBytes = memoryPerViewBytes
    self.wallNanoseconds = wallNanoseconds
    self.cpuNanoseconds = cpuNanoseconds
  }
}
