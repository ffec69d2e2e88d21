import SimulatorReports

/// The performance gate: checks a run's exact counts and CPU-time ratios against the thresholds
/// committed in git, re-measuring a ratio that is past its limit before failing it.
///
/// ```swift
/// let thresholds = try GateThresholds.load(path: "Gates/thresholds.json")
/// let gate = Gate(thresholds: thresholds)
/// let outcome = gate.check(observations) { key in
///   probe.measure(workload: workloads[key]!.fanOut, floor: workloads[key]!.closureLoop)
/// }
/// print(outcome.text)
/// exit(outcome.exitCode)
/// ```
///
/// Two tiers (see `docs/simulator-report.md`, "The performance gate"):
/// 1. Counts — deliveries, re-renders, skips, MainActor jobs, SQL statements, allocations per
///    commit — compared exactly: any increase fails (beyond a per-metric allowance, none by
///    default); a drop beyond the ratchet (``GatePolicy/ratchetPercent``) fails too, until the
///    thresholds are regenerated, so improvements are recorded.
/// 2. Ratios of CPU time to a floor doing the same shape of work, measured in the same run: a
///    median past `baseline × tolerance` fails only if `remeasure` agrees.
///
/// This type only carries out ``GateCore``'s actions; the decisions live there.
///
/// - Complexity: ``GateCore/evaluate(_:)`` plus one `remeasure` call per ratio past its limit.
/// - Note: Isolation: a value; `check` runs `remeasure` synchronously on the calling thread,
///   which is what thread-CPU-time ratios need.
public struct Gate: Sendable {
  /// The committed thresholds.
  public var thresholds: GateThresholds
  /// The toolchain whose thresholds apply.
  public var toolchain: SwiftToolchain
  /// Paths and command for the messages.
  public var options: GateOptions

  /// Makes a gate for this compiler by default.
  public init(
    thresholds: GateThresholds, toolchain: SwiftToolchain = .current,
    options: GateOptions = GateOptions()
  ) {
    self.thresholds = thresholds
    self.toolchain = toolchain
    self.options = options
  }

  /// Checks what a run measured.
  ///
  /// - Parameters:
  ///   - observations: one per gated flow or scenario.
  ///   - remeasure: measures one ratio again; called only for ratios past their limit. A throw
  ///     fails that ratio with the error's text.
  public func check(
    _ observations: [GateObservation],
    remeasure: (RatioKey) throws -> RatioMeasurement
  ) -> GateOutcome {
    var core = GateCore(
      thresholds: thresholds, toolchain: toolchain.thresholdsKey, options: options)
    var action = core.evaluate(observations)
    while true {
      switch action {
      case .finish(let outcome):
        return outcome
      case .remeasure(let keys):
        var results: [RatioKey: GateCore.Remeasurement] = [:]
        for key in keys {
          do {
            results[key] = .measured(try remeasure(key))
          } catch {
            results[key] = .failed("\(error)")
          }
        }
        action = core.remeasured(results)
      }
    }
  }

  /// The thresholds `--update` writes: these thresholds with this toolchain's entry replaced by
  /// what `observations` measured.
  public func record(_ observations: [GateObservation]) -> GateThresholds {
    thresholds.recording(observations, toolchain: toolchain.thresholdsKey)
  }
}
