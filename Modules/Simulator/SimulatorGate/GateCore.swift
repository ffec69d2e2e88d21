/// The gate's decisions as a pure state machine: give it what a run measured, and it answers
/// with what to do next — re-measure some ratios, or finish with an outcome. It reads no clock
/// and runs nothing, so every decision is tested without timing; ``Gate`` is the thin owner
/// that carries the actions out.
///
/// ```swift
/// var core = GateCore(thresholds: thresholds, toolchain: "swift-6.3")
/// var action = core.evaluate(observations)
/// if case .remeasure(let keys) = action {
///   action = core.remeasured(Dictionary(uniqueKeysWithValues: keys.map { ($0, .measured(probe($0))) }))
/// }
/// guard case .finish(let outcome) = action else { fatalError() }
/// ```
///
/// States: ready → (evaluate) → awaiting re-measure → (remeasured) → finished, or ready →
/// (evaluate) → finished when no ratio is past its limit.
///
/// - Complexity: `evaluate` is O(f × m log m), f = flows, m = metrics and ratios per flow.
/// - Note: Isolation: a value; drive it from one task.
public struct GateCore: Sendable {
  /// What the owner must do next.
  public enum Action: Sendable, Equatable {
    /// Measure these ratios again (each was past its limit), then call
    /// ``GateCore/remeasured(_:)``.
    case remeasure([RatioKey])
    /// The gate is decided.
    case finish(GateOutcome)
  }

  /// The result of re-measuring one ratio.
  public enum Remeasurement: Sendable, Equatable {
    /// The re-run measured this.
    case measured(RatioMeasurement)
    /// The re-run could not be made, for this reason.
    case failed(String)
  }

  private enum Entry: Sendable {
    case settled(GateFinding)
    case pending(RatioKey, RatioLimit, RatioMeasurement)
  }

  private enum State: Sendable {
    case ready
    case awaitingRemeasure(entries: [Entry], observations: [GateObservation], summary: Summary)
    case finished
  }

  private struct Summary: Sendable {
    var flows = 0
    var counts = 0
    var ratios = 0
  }

  /// The thresholds judged against.
  public let thresholds: GateThresholds
  /// The toolchain key (`swift-6.3`).
  public let toolchain: String
  /// Where the thresholds live and how to regenerate them, for the messages.
  public let options: GateOptions
  private var state = State.ready

  /// Makes a core in its ready state.
  public init(thresholds: GateThresholds, toolchain: String, options: GateOptions = GateOptions()) {
    self.thresholds = thresholds
    self.toolchain = toolchain
    self.options = options
  }

  /// Judges what a run measured.
  ///
  /// - Precondition: the core is ready (called once).
  public mutating func evaluate(_ observations: [GateObservation]) -> Action {
    guard case .ready = state else {
      preconditionFailure("GateCore.evaluate called twice; make a new GateCore for each check")
    }
    let observations = observations.sorted { $0.flow < $1.flow }
    guard let recorded = thresholds.toolchains[toolchain] else {
      let finding = GateFinding.toolchainNotRecorded(
        toolchain: toolchain, recorded: thresholds.toolchains.keys.sorted())
      return finish(entries: [.settled(finding)], observations: observations, summary: Summary())
    }
    var entries: [Entry] = []
    var summary = Summary()
    let observed = Set(observations.map(\.flow))
    for observation in observations {
      guard let flowThresholds = recorded.flows[observation.flow] else {
        entries.append(.settled(.flowNotRecorded(flow: observation.flow)))
        for (metric, values) in observation.variations.sorted(by: { $0.key < $1.key }) {
          entries.append(
            .settled(
              .countNotDeterministic(flow: observation.flow, metric: metric, values: values)))
        }
        continue
      }
      summary.flows += 1
      entries += judgeCounts(observation, against: flowThresholds, summary: &summary)
      entries += judgeRatios(observation, against: flowThresholds, summary: &summary)
    }
    for flow in recorded.flows.keys.sorted() where !observed.contains(flow) {
      entries.append(.settled(.flowNotMeasured(flow: flow)))
    }
    let pending = entries.compactMap { entry -> RatioKey? in
      if case .pending(let key, _, _) = entry { return key }
      return nil
    }
    guard pending.isEmpty else {
      state = .awaitingRemeasure(entries: entries, observations: observations, summary: summary)
      return .remeasure(pending)
    }
    return finish(entries: entries, observations: observations, summary: summary)
  }

  /// Takes the re-run results of the ratios ``evaluate(_:)`` asked for: a ratio whose re-run is
  /// also past its limit fails; one whose re-run is within passes as noise. A missing result
  /// counts as a failed re-run.
  ///
  /// - Precondition: the last action was ``Action/remeasure(_:)``.
  public mutating func remeasured(_ results: [RatioKey: Remeasurement]) -> Action {
    guard case .awaitingRemeasure(let entries, let observations, let summary) = state else {
      preconditionFailure("GateCore.remeasured called without a pending re-measure")
    }
    let settled = entries.map { entry -> Entry in
      guard case .pending(let key, let limit, let first) = entry else { return entry }
      switch results[key] {
      case .measured(let rerun)?:
        return .settled(
          rerun.median > limit.limit
            ? .ratioExceeded(
              flow: key.flow, name: key.name, limit: limit, first: first, rerun: rerun)
            : .ratioClearedOnRerun(
              flow: key.flow, name: key.name, limit: limit, first: first, rerun: rerun))
      case .failed(let reason)?:
        return .settled(
          .ratioRerunFailed(
            flow: key.flow, name: key.name, limit: limit, first: first, reason: reason))
      case nil:
        return .settled(
          .ratioRerunFailed(
            flow: key.flow, name: key.name, limit: limit, first: first, reason: "no result"))
      }
    }
    var rerunMedians: [RatioKey: RatioMeasurement] = [:]
    for (key, result) in results {
      if case .measured(let measurement) = result { rerunMedians[key] = measurement }
    }
    return finish(
      entries: settled, observations: observations, summary: summary, reruns: rerunMedians)
  }

  private func judgeCounts(
    _ observation: GateObservation, against recorded: FlowThresholds, summary: inout Summary
  ) -> [Entry] {
    let flow = observation.flow
    let policy = thresholds.policy
    var entries: [Entry] = []
    for metric in Set(observation.counts.keys).union(recorded.counts.keys).sorted() {
      if let values = observation.variations[metric] {
        entries.append(
          .settled(.countNotDeterministic(flow: flow, metric: metric, values: values)))
        continue
      }
      switch (recorded.counts[metric], observation.counts[metric]) {
      case (nil, let actual?):
        entries.append(.settled(.countNotRecorded(flow: flow, metric: metric, actual: actual)))
      case (let expected?, nil):
        entries.append(.settled(.countNotMeasured(flow: flow, metric: metric, expected: expected)))
      case (let expected?, let actual?):
        summary.counts += 1
        let allowance = policy.allowance(for: metric, expected: expected)
        if actual > expected + allowance {
          entries.append(
            .settled(
              .countIncreased(flow: flow, metric: metric, expected: expected, actual: actual)))
        } else if actual > expected {
          entries.append(
            .settled(
              .countIncreasedWithinAllowance(
                flow: flow, metric: metric, expected: expected, actual: actual,
                allowance: allowance)))
        } else if actual < expected {
          let dropPercent = (expected - actual) / expected * 100
          let finding: GateFinding =
            dropPercent > policy.ratchetPercent
            ? .countDroppedBeyondRatchet(
              flow: flow, metric: metric, expected: expected, actual: actual,
              ratchetPercent: policy.ratchetPercent)
            : .countDroppedWithinRatchet(
              flow: flow, metric: metric, expected: expected, actual: actual,
              ratchetPercent: policy.ratchetPercent)
          entries.append(.settled(finding))
        }
      case (nil, nil):
        break
      }
    }
    return entries
  }

  private func judgeRatios(
    _ observation: GateObservation, against recorded: FlowThresholds, summary: inout Summary
  ) -> [Entry] {
    let flow = observation.flow
    var entries: [Entry] = []
    for name in Set(observation.ratios.keys).union(recorded.ratios.keys).sorted() {
      switch (recorded.ratios[name], observation.ratios[name]) {
      case (nil, let actual?):
        entries.append(.settled(.ratioNotRecorded(flow: flow, name: name, actual: actual)))
      case (let threshold?, nil):
        entries.append(
          .settled(.ratioNotMeasured(flow: flow, name: name, baseline: threshold.baseline)))
      case (let threshold?, let actual?):
        summary.ratios += 1
        let limit = RatioLimit(
          baseline: threshold.baseline,
          tolerance: threshold.tolerance ?? thresholds.policy.ratioTolerance)
        if actual.median > limit.limit {
          entries.append(.pending(RatioKey(flow: flow, name: name), limit, actual))
        }
      case (nil, nil):
        break
      }
    }
    return entries
  }

  private mutating func finish(
    entries: [Entry], observations: [GateObservation], summary: Summary,
    reruns: [RatioKey: RatioMeasurement] = [:]
  ) -> Action {
    state = .finished
    let findings = entries.compactMap { entry -> GateFinding? in
      if case .settled(let finding) = entry { return finding }
      return nil
    }
    let regenerated = thresholds.recording(observations, toolchain: toolchain, ratios: reruns)
    return .finish(
      GateOutcome(
        findings: findings, toolchain: toolchain, flowsChecked: summary.flows,
        countsChecked: summary.counts, ratiosChecked: summary.ratios, regenerated: regenerated,
        options: options))
  }
}
