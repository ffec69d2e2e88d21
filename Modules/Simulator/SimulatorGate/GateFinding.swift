import SimulatorReports

/// One thing the gate found: a regression, an unrecorded improvement, something missing — or
/// a note that does not fail (a drop within the ratchet, a ratio that a re-run cleared).
///
/// ``line`` is the text printed for it; its wording is API, pinned by tests.
///
/// - Note: Isolation: a value; `Sendable`.
public enum GateFinding: Sendable, Equatable, Codable {
  /// A count rose above its threshold (plus its allowance): a regression.
  case countIncreased(flow: String, metric: String, expected: Double, actual: Double)
  /// A count rose, but within its allowance.
  case countIncreasedWithinAllowance(
    flow: String, metric: String, expected: Double, actual: Double, allowance: Double)
  /// A count dropped by more than the ratchet: an improvement to record.
  case countDroppedBeyondRatchet(
    flow: String, metric: String, expected: Double, actual: Double, ratchetPercent: Double)
  /// A count dropped, within the ratchet.
  case countDroppedWithinRatchet(
    flow: String, metric: String, expected: Double, actual: Double, ratchetPercent: Double)
  /// A count was measured that the thresholds do not list.
  case countNotRecorded(flow: String, metric: String, actual: Double)
  /// The thresholds list a count that the run did not measure.
  case countNotMeasured(flow: String, metric: String, expected: Double)
  /// A ratio was past its limit and the re-run agreed: a regression.
  case ratioExceeded(
    flow: String, name: String, limit: RatioLimit, first: RatioMeasurement,
    rerun: RatioMeasurement)
  /// A ratio was past its limit but the re-run was within it: noise, not a failure.
  case ratioClearedOnRerun(
    flow: String, name: String, limit: RatioLimit, first: RatioMeasurement,
    rerun: RatioMeasurement)
  /// A ratio was past its limit and the re-run could not be made.
  case ratioRerunFailed(
    flow: String, name: String, limit: RatioLimit, first: RatioMeasurement, reason: String)
  /// A ratio was measured that the thresholds do not list.
  case ratioNotRecorded(flow: String, name: String, actual: RatioMeasurement)
  /// The thresholds list a ratio that the run did not measure.
  case ratioNotMeasured(flow: String, name: String, baseline: Double)
  /// A count differed between runs of the same flow in one gate: not judged against its
  /// threshold (the values of each run, in order).
  case countNotDeterministic(flow: String, metric: String, values: [Double])
  /// A flow was measured that has no thresholds.
  case flowNotRecorded(flow: String)
  /// The thresholds list a flow that the run did not measure.
  case flowNotMeasured(flow: String)
  /// The thresholds have no entry for this toolchain.
  case toolchainNotRecorded(toolchain: String, recorded: [String])

  /// Whether this finding fails the gate (notes do not).
  public var isFailure: Bool {
    switch self {
    case .countIncreasedWithinAllowance, .countDroppedWithinRatchet, .ratioClearedOnRerun:
      false
    default:
      true
    }
  }

  /// The flow it concerns, if any.
  public var flow: String? {
    switch self {
    case .countIncreased(let flow, _, _, _), .countIncreasedWithinAllowance(let flow, _, _, _, _),
      .countDroppedBeyondRatchet(let flow, _, _, _, _),
      .countDroppedWithinRatchet(let flow, _, _, _, _), .countNotRecorded(let flow, _, _),
      .countNotMeasured(let flow, _, _), .countNotDeterministic(let flow, _, _),
      .ratioExceeded(let flow, _, _, _, _),
      .ratioClearedOnRerun(let flow, _, _, _, _), .ratioRerunFailed(let flow, _, _, _, _),
      .ratioNotRecorded(let flow, _, _), .ratioNotMeasured(let flow, _, _),
      .flowNotRecorded(let flow), .flowNotMeasured(let flow):
      flow
    case .toolchainNotRecorded:
      nil
    }
  }

  /// The finding as one line of the gate's output: the flow, the metric, expected and actual,
  /// and what it means.
  public var line: String {
    switch self {
    case .countIncreased(let flow, let metric, let expected, let actual):
      return "\(flow)  \(metric): expected \(GateFormat.number(expected)), actual "
        + "\(GateFormat.number(actual)) \(GateFormat.change(from: expected, to: actual)): "
        + "an increase is a regression"
    case .countIncreasedWithinAllowance(
      let flow, let metric, let expected, let actual, let allowance):
      return "\(flow)  \(metric): expected \(GateFormat.number(expected)), actual "
        + "\(GateFormat.number(actual)) \(GateFormat.change(from: expected, to: actual)): "
        + "within the allowance of \(GateFormat.number(allowance))"
    case .countDroppedBeyondRatchet(let flow, let metric, let expected, let actual, let ratchet):
      return "\(flow)  \(metric): expected \(GateFormat.number(expected)), actual "
        + "\(GateFormat.number(actual)) \(GateFormat.change(from: expected, to: actual)): "
        + "dropped more than the \(GateFormat.percent(ratchet)) ratchet; record the improvement"
    case .countDroppedWithinRatchet(let flow, let metric, let expected, let actual, let ratchet):
      return "\(flow)  \(metric): expected \(GateFormat.number(expected)), actual "
        + "\(GateFormat.number(actual)) \(GateFormat.change(from: expected, to: actual)): "
        + "within the \(GateFormat.percent(ratchet)) ratchet"
    case .countNotRecorded(let flow, let metric, let actual):
      return "\(flow)  \(metric): no threshold recorded, actual \(GateFormat.number(actual))"
    case .countNotMeasured(let flow, let metric, let expected):
      let hint =
        metric == GateMetric.allocationsPerCommit.rawValue
        ? " (allocations are counted only by a release build on Linux (glibc), without "
          + "sanitizers: build with -c release)" : ""
      return "\(flow)  \(metric): expected \(GateFormat.number(expected)), not measured\(hint)"
    case .countNotDeterministic(let flow, let metric, let values):
      return "\(flow)  \(metric): NOT DETERMINISTIC, "
        + values.map { $0.isNaN ? "not measured" : GateFormat.number($0) }.joined(separator: ", ")
        + " in \(values.count) runs; not judged as a regression: run the flow "
        + "with --check-determinism to find the job or the source the runtime does not own"
    case .ratioExceeded(let flow, let name, let limit, let first, let rerun):
      return "\(flow)  ratio \(name): expected at most \(limit.text), actual "
        + "\(GateFormat.measurement(first)); re-run \(GateFormat.ratio(rerun.median)) agrees"
    case .ratioClearedOnRerun(let flow, let name, let limit, let first, let rerun):
      return "\(flow)  ratio \(name): first run \(GateFormat.ratio(first.median)) was past "
        + "\(GateFormat.ratio(limit.limit)), re-run \(GateFormat.ratio(rerun.median)) is within: "
        + "treated as noise"
    case .ratioRerunFailed(let flow, let name, let limit, let first, let reason):
      return "\(flow)  ratio \(name): expected at most \(limit.text), actual "
        + "\(GateFormat.measurement(first)); the re-run failed: \(reason)"
    case .ratioNotRecorded(let flow, let name, let actual):
      return "\(flow)  ratio \(name): no baseline recorded, actual "
        + GateFormat.measurement(actual)
    case .ratioNotMeasured(let flow, let name, let baseline):
      return "\(flow)  ratio \(name): baseline \(GateFormat.ratio(baseline)), not measured"
    case .flowNotRecorded(let flow):
      return "\(flow): no thresholds recorded for this flow"
    case .flowNotMeasured(let flow):
      return "\(flow): thresholds recorded, but this run did not measure the flow "
        + "(run it, or regenerate to drop it)"
    case .toolchainNotRecorded(let toolchain, let recorded):
      let known = recorded.isEmpty ? "none" : recorded.joined(separator: ", ")
      return "no thresholds for \(toolchain) (recorded: \(known))"
    }
  }
}

/// The most a ratio may reach: its baseline times its tolerance.
///
/// - Note: Isolation: a value; `Sendable`.
public struct RatioLimit: Sendable, Equatable, Codable {
  /// The recorded median ratio.
  public var baseline: Double
  /// The tolerance factor applied to it.
  public var tolerance: Double

  /// Makes a limit.
  public init(baseline: Double, tolerance: Double) {
    self.baseline = baseline
    self.tolerance = tolerance
  }

  /// `baseline × tolerance`.
  public var limit: Double { baseline * tolerance }

  /// `1.78× (baseline 1.42× × tolerance 1.25)`.
  public var text: String {
    "\(GateFormat.ratio(limit)) (baseline \(GateFormat.ratio(baseline)) × tolerance "
      + "\(GateFormat.number(tolerance)))"
  }
}

/// How the gate prints numbers: counts as integers when whole, otherwise their shortest exact
/// decimal; changes with sign and percentage; ratios with two decimals and `×`.
enum GateFormat {
  static func number(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 9e15 { return "\(Int64(value))" }
    return "\(value)"
  }

  static func change(from expected: Double, to actual: Double) -> String {
    let delta = actual - expected
    let sign = delta > 0 ? "+" : ""
    let percentText: String
    if expected == 0 {
      percentText = "new"
    } else {
      let percent = delta / expected * 100
      percentText = "\(percent > 0 ? "+" : "")\(self.percent(percent))"
    }
    let deltaText =
      delta == delta.rounded()
      ? number(delta) : trimmingZeros(ReportUnits.fixed(delta, decimals: 4))
    return "(\(sign)\(deltaText), \(percentText))"
  }

  static func percent(_ value: Double) -> String {
    trimmingZeros(ReportUnits.fixed(value, decimals: 1)) + "%"
  }

  static func ratio(_ value: Double) -> String { ReportUnits.ratio(value) }

  /// `1.93× (median of 15 rounds, spread 3%)`.
  static func measurement(_ measurement: RatioMeasurement) -> String {
    "\(ratio(measurement.median)) (median of \(measurement.rounds) round"
      + "\(measurement.rounds == 1 ? "" : "s"), spread \(percent(measurement.spread * 100)))"
  }
}
