import SimulatorReports

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one `weft-sim gate` run decided, with what it ran: the JSON that `gate --json` prints
/// and `weft-sim merge` combines.
///
/// A gate split with `--shard K/N` (see ``GateShard``) prints one report per shard, naming its
/// shard and its flows; ``merge(_:)`` combines the N shard reports into the report of the
/// whole gate: the same findings in the same order, the same counts, the same verdict and the
/// same regenerated thresholds as one unsharded run that measured the same values.
///
/// ```swift
/// let report = gate.check(observations, shard: GateShard(index: 1, count: 4),
///                         plan: plan, files: files) { _ in probe() }
/// print(report.jsonText)
/// ```
///
/// - Complexity: O(f) storage, f = findings plus regenerated thresholds.
/// - Note: Isolation: a value; `Sendable`.
public struct GateReport: Sendable, Equatable {
  /// The JSON schema version this type writes and reads.
  public static let currentSchemaVersion = 1
  /// The `kind` field of a gate report's JSON.
  public static let kindName = "gate"

  /// Schema version of this report.
  public var schemaVersion: Int
  /// The report format's tool, always `weft-sim` (the engine's), so that reports of any
  /// simulator executable merge; the executable's own name is ``GateOptions/program``, which
  /// is not encoded (a decoded report names `weft-sim` until its reader sets it).
  public var tool: String
  /// The shards this report covers, ascending: none for an unsharded gate, one for a shard,
  /// all of them for a merge.
  public var shards: [GateShard]
  /// Every flow key of the whole gate, in plan order (the same in every shard).
  public var plan: [String]
  /// The flow keys this report ran, in plan order.
  public var flows: [String]
  /// The flow files it ran, sorted by path.
  public var files: [String]
  /// The verdict, findings and regenerated thresholds.
  public var outcome: GateOutcome

  /// Makes a report.
  public init(
    outcome: GateOutcome, shards: [GateShard] = [], plan: [String], flows: [String],
    files: [String]
  ) {
    self.schemaVersion = Self.currentSchemaVersion
    self.tool = RunReport.toolName
    self.shards = shards
    self.plan = plan
    self.flows = flows
    self.files = files
    self.outcome = outcome
  }

  /// Whether the gate passed.
  public var passed: Bool { outcome.passed }
  /// 0 when it passed, 1 otherwise.
  public var exitCode: Int32 { outcome.exitCode }

  /// What to print: for a shard, which shard and which flows it ran; for a merge, which shards
  /// it combined; then the gate's text (``GateOutcome/text``).
  ///
  /// - Complexity: O(length of the text).
  public var text: String {
    switch shards.count {
    case 0:
      return outcome.text
    case 1:
      let ran = flows.isEmpty ? "no flow" : flows.joined(separator: ", ")
      return
        "\(outcome.options.program) gate: shard \(shards[0]) ran \(flows.count) of \(plan.count) flows: "
        + "\(ran)\n" + outcome.text
    default:
      return
        "\(outcome.options.program) gate: merged shards \(shards.map(\.description).joined(separator: ", ")) "
        + "(\(flows.count) flows)\n" + outcome.text
    }
  }

  /// The report as JSON text (sorted keys, ending with a newline), as `gate --json` prints it.
  ///
  /// - Complexity: O(size of the report).
  public var jsonText: String {
    do {
      return try String(decoding: JSONRenderer.encoder().encode(self), as: UTF8.self) + "\n"
    } catch {
      return "{\n  \"error\" : \"could not encode the gate report: \(error)\",\n"
        + "  \"kind\" : \"gate\",\n  \"schemaVersion\" : \(Self.currentSchemaVersion)\n}\n"
    }
  }
}

extension GateReport: Codable {
  private enum CodingKeys: String, CodingKey {
    case schemaVersion, tool, kind, shards, plan, flows, files, passed, toolchain
    case thresholdsPath, updateCommand, flowsChecked, countsChecked, ratiosChecked, findings
    case regenerated
  }

  /// One finding as JSON: its line of text and whether it fails (both for readers; decoding
  /// reads only `finding`).
  private struct Entry: Codable {
    var failure: Bool
    var line: String
    var finding: GateFinding
  }

  /// Decodes a report; `passed` and each finding's `line` and `failure` are derived and
  /// ignored.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let outcome = GateOutcome(
      findings: try container.decode([Entry].self, forKey: .findings).map(\.finding),
      toolchain: try container.decode(String.self, forKey: .toolchain),
      flowsChecked: try container.decode(Int.self, forKey: .flowsChecked),
      countsChecked: try container.decode(Int.self, forKey: .countsChecked),
      ratiosChecked: try container.decode(Int.self, forKey: .ratiosChecked),
      regenerated: try container.decode(GateThresholds.self, forKey: .regenerated),
      options: GateOptions(
        thresholdsPath: try container.decode(String.self, forKey: .thresholdsPath),
        updateCommand: try container.decode(String.self, forKey: .updateCommand)))
    self.init(
      outcome: outcome, shards: try container.decode([GateShard].self, forKey: .shards),
      plan: try container.decode([String].self, forKey: .plan),
      flows: try container.decode([String].self, forKey: .flows),
      files: try container.decode([String].self, forKey: .files))
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    tool = try container.decode(String.self, forKey: .tool)
  }

  /// Encodes the report with `kind: "gate"`, the verdict and each finding's line.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(schemaVersion, forKey: .schemaVersion)
    try container.encode(tool, forKey: .tool)
    try container.encode(Self.kindName, forKey: .kind)
    try container.encode(shards, forKey: .shards)
    try container.encode(plan, forKey: .plan)
    try container.encode(flows, forKey: .flows)
    try container.encode(files, forKey: .files)
    try container.encode(outcome.passed, forKey: .passed)
    try container.encode(outcome.toolchain, forKey: .toolchain)
    try container.encode(outcome.options.thresholdsPath, forKey: .thresholdsPath)
    try container.encode(outcome.options.updateCommand, forKey: .updateCommand)
    try container.encode(outcome.flowsChecked, forKey: .flowsChecked)
    try container.encode(outcome.countsChecked, forKey: .countsChecked)
    try container.encode(outcome.ratiosChecked, forKey: .ratiosChecked)
    try container.encode(
      outcome.findings.map { Entry(failure: $0.isFailure, line: $0.line, finding: $0) },
      forKey: .findings)
    try container.encode(outcome.regenerated, forKey: .regenerated)
  }
}

extension Gate {
  /// Checks one shard's observations (or, with `shard` `nil`, the whole gate's) and returns
  /// its report.
  ///
  /// A shard is judged against ``GateShard/thresholds(_:toolchain:flows:plan:)``: only its own
  /// flows (plus, for shard 1, the recorded flows outside the plan), so a flow another shard
  /// runs is not reported missing.
  ///
  /// - Parameters:
  ///   - observations: what this shard measured, one per flow of its share.
  ///   - shard: the shard, or `nil` for the whole gate.
  ///   - plan: every flow key of the whole gate, in plan order.
  ///   - files: the flow files this shard ran.
  ///   - remeasure: as in ``check(_:remeasure:)``.
  /// - Complexity: as ``check(_:remeasure:)``.
  /// - Note: Isolation: runs `remeasure` synchronously on the calling thread.
  public func check(
    _ observations: [GateObservation], shard: GateShard?, plan: [String], files: [String],
    remeasure: (RatioKey) throws -> RatioMeasurement
  ) -> GateReport {
    let flows = shard.map { $0.share(of: plan) } ?? plan
    var gate = self
    if let shard {
      gate.thresholds = shard.thresholds(
        thresholds, toolchain: toolchain.thresholdsKey, flows: Set(flows), plan: Set(plan))
    }
    return GateReport(
      outcome: gate.check(observations, remeasure: remeasure), shards: shard.map { [$0] } ?? [],
      plan: plan, flows: flows, files: files.sorted())
  }
}
