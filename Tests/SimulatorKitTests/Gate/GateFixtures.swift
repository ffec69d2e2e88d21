@testable import SimulatorGate
@testable import SimulatorKit

/// Thresholds and observations for the gate tests: one flow, six counts, one ratio.
enum GateFixtures {
  static let counts: [String: Double] = [
    "allocationsPerCommit": 14, "deliveries": 1, "mainActorJobs": 1, "rerenders": 1, "skips": 0,
    "sqlStatements": 0,
  ]

  static func thresholds(policy: GatePolicy = GatePolicy()) -> GateThresholds {
    GateThresholds(
      policy: policy,
      toolchains: [
        "swift-6.3": ToolchainThresholds(flows: [
          "fanout-100k": FlowThresholds(
            counts: counts, ratios: ["delivery": RatioThreshold(baseline: 1.4)])
        ])
      ])
  }

  static func observation(
    _ changes: [String: Double?] = [:], ratio: Double = 1.5, flow: String = "fanout-100k"
  ) -> GateObservation {
    var measured = counts
    for (metric, value) in changes { measured[metric] = value }
    return GateObservation(
      flow: flow, counts: measured,
      ratios: [
        "delivery": RatioMeasurement(
          median: ratio, minimum: ratio - 0.02,
          maximum: ratio + 0.04, rounds: 15)
      ])
  }

  static let key = RatioKey(flow: "fanout-100k", name: "delivery")

  /// Runs a fresh core over `observations`, answering a re-measure with `rerun`.
  static func decide(
    _ observations: [GateObservation], thresholds: GateThresholds = thresholds(),
    toolchain: String = "swift-6.3", rerun: GateCore.Remeasurement? = nil
  ) -> (outcome: GateOutcome, remeasured: [RatioKey]) {
    var core = GateCore(thresholds: thresholds, toolchain: toolchain)
    switch core.evaluate(observations) {
    case .finish(let outcome):
      return (outcome, [])
    case .remeasure(let keys):
      let results =
        rerun.map { result in
          Dictionary(uniqueKeysWithValues: keys.map { ($0, result) })
        } ?? [:]
      guard case .finish(let outcome) = core.remeasured(results) else {
        fatalError("a core finishes after one re-measure")
      }
      return (outcome, keys)
    }
  }
}
