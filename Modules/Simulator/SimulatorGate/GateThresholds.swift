/// The gate's committed expectations, as stored in `Gates/thresholds.json`: per Swift
/// toolchain, per flow, exact counts and CPU-time ratio baselines, plus the policy that says
/// how far a count may drop before the improvement must be recorded.
///
/// ```json
/// {
///   "policy" : { "allowances" : { }, "ratchetPercent" : 5, "ratioTolerance" : 1.25 },
///   "schemaVersion" : 1,
///   "toolchains" : {
///     "swift-6.3" : {
///       "flows" : {
///         "fanout-100k" : {
///           "counts" : { "allocationsPerCommit" : 14, "deliveries" : 1, "mainActorJobs" : 1,
///                        "rerenders" : 1, "skips" : 0, "sqlStatements" : 0 },
///           "ratios" : { "delivery" : { "baseline" : 1.42 } }
///         }
///       }
///     }
///   }
/// }
/// ```
///
/// The file is written by `weft-sim gate --update` (see ``recording(_:toolchain:)``) and
/// reviewed like code. `docs/simulator-report.md` documents every field.
///
/// - Complexity: lookups are O(1) expected.
/// - Note: Isolation: a value; `Sendable`.
public struct GateThresholds: Sendable, Equatable {
  /// The schema version this type reads and writes.
  public static let currentSchemaVersion = 1

  /// Schema version of the file.
  public var schemaVersion: Int
  /// How counts and ratios are judged.
  public var policy: GatePolicy
  /// Thresholds per toolchain key (``SwiftToolchain/thresholdsKey``, such as `swift-6.3`).
  public var toolchains: [String: ToolchainThresholds]

  /// Makes thresholds.
  public init(
    policy: GatePolicy = GatePolicy(), toolchains: [String: ToolchainThresholds] = [:]
  ) {
    self.schemaVersion = Self.currentSchemaVersion
    self.policy = policy
    self.toolchains = toolchains
  }

  /// No thresholds at all, the default policy: what a missing file means.
  public static let empty = GateThresholds()
}

/// How the gate judges measurements against thresholds.
///
/// - Note: Isolation: a value; `Sendable`.
public struct GatePolicy: Sendable, Equatable, Codable {
  /// A count that drops by more than this percentage of its threshold fails until the
  /// thresholds are regenerated, so improvements are recorded (the ratchet). 0 makes any drop
  /// fail: exact zero tolerance. Default 5.
  public var ratchetPercent: Double
  /// A ratio fails when it exceeds its baseline times this factor and a re-run agrees. Default
  /// 1.25; a ratio threshold may set its own.
  public var ratioTolerance: Double
  /// Per count metric, how much it may rise above its threshold without failing. Empty by
  /// default: counts are exact.
  public var allowances: [String: Double]
  /// Per count metric, how much it may rise above its threshold as a percentage of that
  /// threshold. The allowance is the larger of this and `allowances`: an absolute allowance
  /// suits small counts, a relative one large counts whose noise grows with them (the
  /// allocations of a 100,000-view commit vary by ~0.1% from run to run). Empty by default.
  public var allowancePercents: [String: Double]

  /// Makes a policy.
  public init(
    ratchetPercent: Double = 5, ratioTolerance: Double = 1.25, allowances: [String: Double] = [:],
    allowancePercents: [String: Double] = [:]
  ) {
    self.ratchetPercent = ratchetPercent
    self.ratioTolerance = ratioTolerance
    self.allowances = allowances
    self.allowancePercents = allowancePercents
  }

  /// How much `metric` may rise above `expected` without failing: the larger of its absolute
  /// and its relative allowance.
  ///
  /// - Complexity: O(1) expected.
  /// - Note: Isolation: any (a pure function of the policy).
  public func allowance(for metric: String, expected: Double) -> Double {
    let absolute = allowances[metric] ?? 0
    let relative = (allowancePercents[metric] ?? 0) * expected / 100
    return max(absolute, relative)
  }

  private enum CodingKeys: String, CodingKey {
    case ratchetPercent, ratioTolerance, allowances, allowancePercents
  }

  /// Encodes the policy; empty allowances are left out.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(ratchetPercent, forKey: .ratchetPercent)
    try container.encode(ratioTolerance, forKey: .ratioTolerance)
    if !allowances.isEmpty { try container.encode(allowances, forKey: .allowances) }
    if !allowancePercents.isEmpty {
      try container.encode(allowancePercents, forKey: .allowancePercents)
    }
  }

  /// Decodes a policy; a missing field takes its default.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      ratchetPercent: try container.decodeIfPresent(Double.self, forKey: .ratchetPercent) ?? 5,
      ratioTolerance: try container.decodeIfPresent(Double.self, forKey: .ratioTolerance) ?? 1.25,
      allowances: try container.decodeIfPresent([String: Double].self, forKey: .allowances) ?? [:],
      allowancePercents: try container.decodeIfPresent(
        [String: Double].self, forKey: .allowancePercents) ?? [:]
    )
  }
}

/// The thresholds of one toolchain.
///
/// - Note: Isolation: a value; `Sendable`.
public struct ToolchainThresholds: Sendable, Equatable, Codable {
  /// Thresholds per flow key (the flow file's name without `.flow`, such as `fanout-100k`).
  public var flows: [String: FlowThresholds]

  /// Makes a toolchain's thresholds.
  public init(flows: [String: FlowThresholds] = [:]) { self.flows = flows }
}

/// The thresholds of one flow (or benchmark scenario).
///
/// - Note: Isolation: a value; `Sendable`.
public struct FlowThresholds: Sendable, Equatable, Codable {
  /// Exact counts per metric name (see ``GateMetric``).
  public var counts: [String: Double]
  /// CPU-time ratio baselines per ratio name.
  public var ratios: [String: RatioThreshold]

  /// Makes a flow's thresholds.
  public init(counts: [String: Double] = [:], ratios: [String: RatioThreshold] = [:]) {
    self.counts = counts
    self.ratios = ratios
  }

  private enum CodingKeys: String, CodingKey {
    case counts, ratios
  }

  /// Decodes a flow's thresholds; a missing `counts` or `ratios` is empty.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      counts: try container.decodeIfPresent([String: Double].self, forKey: .counts) ?? [:],
      ratios: try container.decodeIfPresent([String: RatioThreshold].self, forKey: .ratios) ?? [:])
  }
}

/// The recorded ratio of a workload's CPU time to its floor's, with an optional tolerance of its
/// own.
///
/// - Note: Isolation: a value; `Sendable`.
public struct RatioThreshold: Sendable, Equatable, Codable {
  /// The median ratio recorded.
  public var baseline: Double
  /// This ratio's tolerance factor, overriding ``GatePolicy/ratioTolerance``.
  public var tolerance: Double?

  /// Makes a ratio threshold.
  public init(baseline: Double, tolerance: Double? = nil) {
    self.baseline = baseline
    self.tolerance = tolerance
  }
}

extension GateThresholds: Codable {
  private enum CodingKeys: String, CodingKey {
    case schemaVersion, policy, toolchains
  }

  /// Decodes thresholds; a missing policy takes the defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    policy = try container.decodeIfPresent(GatePolicy.self, forKey: .policy) ?? GatePolicy()
    toolchains =
      try container.decodeIfPresent([String: ToolchainThresholds].self, forKey: .toolchains)
      ?? [:]
  }
}
