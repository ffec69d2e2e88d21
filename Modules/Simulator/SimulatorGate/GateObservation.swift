import SimulatorReports

/// What one run of a gated flow measured: its exact counts and its CPU-time ratios.
///
/// ```swift
/// let probe = RatioProbe()
/// let observation = GateObservation(
///   flow: "fanout-100k", metrics: report.total,
///   ratios: ["delivery": probe.measure(workload: fanOut, floor: closureLoop)])
/// ```
///
/// - Note: Isolation: a value; `Sendable`.
public struct GateObservation: Sendable, Equatable {
  /// The flow key, as in the thresholds file (`fanout-100k`).
  public var flow: String
  /// Exact counts per metric name.
  public var counts: [String: Double]
  /// CPU-time ratios per ratio name.
  public var ratios: [String: RatioMeasurement]
  /// The counts that differed between runs of the flow in one gate, with the value of each
  /// run in order: the gate reports them as not deterministic and judges nothing else of
  /// them (an exact count that moves between identical runs is a leak, not a regression).
  public var variations: [String: [Double]]

  /// Makes an observation from its parts.
  public init(
    flow: String, counts: [String: Double], ratios: [String: RatioMeasurement] = [:],
    variations: [String: [Double]] = [:]
  ) {
    self.flow = flow
    self.counts = counts
    self.ratios = ratios
    self.variations = variations
  }

  /// One observation of `runs` of the same flow: the first run's counts, and every count
  /// whose runs did not all agree in `variations`. Ratios come from the first run.
  ///
  /// - Complexity: O(r·m), r = runs, m = metrics.
  public static func combining(_ runs: [GateObservation]) -> GateObservation? {
    guard let first = runs.first else { return nil }
    var variations: [String: [Double]] = [:]
    let metrics = Set(runs.flatMap(\.counts.keys)).sorted()
    for metric in metrics {
      let values = runs.map { $0.counts[metric] ?? .nan }
      if values.contains(where: { $0 != values[0] || $0.isNaN }) { variations[metric] = values }
    }
    return GateObservation(
      flow: first.flow, counts: first.counts, ratios: first.ratios, variations: variations)
  }

  /// An observation of the gated counts in `metrics` (see ``GateMetric``);
  /// `allocationsPerCommit` is left out when allocations were not counted or nothing committed,
  /// so a debug build fails the gate as "not measured" rather than passing with zeros.
  public init(flow: String, metrics: StepMetrics, ratios: [String: RatioMeasurement] = [:]) {
    var counts: [String: Double] = [:]
    for metric in GateMetric.allCases {
      if let value = metric.value(in: metrics) { counts[metric.rawValue] = value }
    }
    self.init(flow: flow, counts: counts, ratios: ratios)
  }

  /// An observation of a run's total, keyed by the flow file's name without directory or
  /// `.flow` (`Flows/fanout-100k.flow` → `fanout-100k`).
  public init(report: RunReport, ratios: [String: RatioMeasurement] = [:]) {
    self.init(flow: Self.flowKey(file: report.file), metrics: report.total, ratios: ratios)
  }

  /// `Flows/fanout-100k.flow` → `fanout-100k`.
  public static func flowKey(file: String) -> String {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    return name.hasSuffix(".flow") ? String(name.dropLast(5)) : name
  }
}

/// The counts the gate compares exactly, as named in the thresholds file.
public enum GateMetric: String, Sendable, CaseIterable {
  /// Committed state changes.
  case commits
  /// Notifications delivered to subscribers.
  case deliveries
  /// Views re-rendered.
  case rerenders
  /// Views skipped because their value did not change.
  case skips
  /// Re-renders whose value equalled the previous one.
  case wastedRenders
  /// Jobs enqueued on the MainActor.
  case mainActorJobs
  /// SQL statements executed.
  case sqlStatements
  /// Allocations per commit (release gate binary only).
  case allocationsPerCommit

  /// This metric's value in `metrics`, or `nil` when it was not measured.
  public func value(in metrics: StepMetrics) -> Double? {
    switch self {
    case .commits: Double(metrics.commits)
    case .deliveries: Double(metrics.deliveries)
    case .rerenders: Double(metrics.viewsRerendered)
    case .skips: Double(metrics.viewsSkipped)
    case .wastedRenders: Double(metrics.wastedRenders)
    case .mainActorJobs: Double(metrics.mainActorJobs)
    case .sqlStatements: Double(metrics.sqlStatements)
    case .allocationsPerCommit: metrics.allocationsPerCommit
    }
  }
}

/// Names one ratio of one flow, for re-runs.
public struct RatioKey: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The flow key.
  public var flow: String
  /// The ratio's name within the flow.
  public var name: String

  /// Makes a key.
  public init(flow: String, name: String) {
    self.flow = flow
    self.name = name
  }

  /// `flow/name`.
  public var description: String { "\(flow)/\(name)" }

  /// Orders by flow, then name.
  public static func < (lhs: RatioKey, rhs: RatioKey) -> Bool {
    (lhs.flow, lhs.name) < (rhs.flow, rhs.name)
  }
}
