import Foundation
import Testing

@testable import SimulatorGate
@testable import SimulatorKit
@testable import SimulatorReports

/// A gate of seven plan items with every kind of finding: a regression, a note, an improvement
/// to record, an unrecorded flow, a ratio past its limit (re-measured), and a recorded flow
/// outside the plan.
enum ShardFixtures {
  static let plan = ["auth", "dashboard", "fanout-100k", "forms", "new-flow", "sync", "ratio"]

  static func thresholds(toolchain: String = "swift-6.3") -> GateThresholds {
    let counts: [String: Double] = ["commits": 10, "deliveries": 20, "rerenders": 30]
    var flows: [String: FlowThresholds] = [:]
    for flow in ["auth", "dashboard", "fanout-100k", "forms", "sync", "gone"] {
      flows[flow] = FlowThresholds(counts: counts)
    }
    flows["ratio"] = FlowThresholds(ratios: ["delivery": RatioThreshold(baseline: 1.4)])
    flows["fanout-100k"]?.ratios["delivery"] = RatioThreshold(baseline: 2, tolerance: 1.5)
    return GateThresholds(
      policy: GatePolicy(ratchetPercent: 10, allowances: ["rerenders": 2]),
      toolchains: [
        toolchain: ToolchainThresholds(flows: flows),
        "swift-6.2": ToolchainThresholds(flows: ["old": FlowThresholds(counts: ["commits": 1])]),
      ])
  }

  static func observations() -> [GateObservation] {
    let counts: [String: Double] = ["commits": 10, "deliveries": 20, "rerenders": 30]
    return plan.map { flow in
      var measured = counts
      switch flow {
      case "auth": measured["deliveries"] = 21  // a regression
      case "dashboard": measured["rerenders"] = 31  // within the allowance: a note
      case "forms": measured["commits"] = 5  // dropped beyond the ratchet
      case "ratio": return GateObservation(flow: flow, counts: [:], ratios: ratio(1.9))
      default: break
      }
      return GateObservation(
        flow: flow, counts: measured, ratios: flow == "fanout-100k" ? ratio(3.5) : [:])
    }
  }

  static func ratio(_ median: Double) -> [String: RatioMeasurement] {
    [
      "delivery": RatioMeasurement(
        median: median, minimum: median - 0.1, maximum: median, rounds: 15)
    ]
  }

  /// Re-runs agree for the fan-out flow and clear the probe.
  static func rerun(_ key: RatioKey) -> RatioMeasurement {
    RatioMeasurement(ratio: key.flow == "ratio" ? 1.5 : 3.2)
  }

  static let gate = Gate(
    thresholds: thresholds(), toolchain: SwiftToolchain(version: "6.3"),
    options: GateOptions(thresholdsPath: "t.json", updateCommand: "update it"))

  static func files(_ flows: [String]) -> [String] { flows.map { "Flows/\($0).flow" } }

  /// Each shard's report of an `count`-way split, written as JSON and read back.
  static func shardReports(
    _ count: Int, gate: Gate = gate
  ) throws -> [(source: String, report: SimulatorReport)] {
    try (1...count).map { index in
      let shard = try #require(GateShard(index: index, count: count))
      let mine = Set(shard.share(of: plan))
      let report = gate.check(
        observations().filter { mine.contains($0.flow) }, shard: shard, plan: plan,
        files: files(shard.share(of: plan)), remeasure: rerun)
      return ("gate-\(index).json", try SimulatorReport.decode(Data(report.jsonText.utf8)))
    }
  }
}

@Suite("Gate shards")
struct GateShardTests {
  @Test func parsesOnlyOneBasedShardsWithinTheirCount() {
    #expect(GateShard(parsing: "2/4") == GateShard(index: 2, count: 4))
    #expect(GateShard(parsing: "1/1")?.description == "1/1")
    for text in ["0/3", "4/3", "x/y", "1/0", "-1/3", "1", "1/2/3", "", "/", " 1/2", "1/ 2"] {
      #expect(GateShard(parsing: text) == nil, "\(text)")
    }
  }

  @Test func theSharesOfASplitPartitionThePlanInPlanOrder() throws {
    let plan = Array(0..<11)
    for count in 1...13 {
      let shares = try (1...count).map { try #require(GateShard(index: $0, count: count)) }
        .map { $0.share(of: plan) }
      #expect(shares.flatMap { $0 }.sorted() == plan, "\(count)")
      for (index, share) in shares.enumerated() {
        #expect(share == plan.filter { $0 % count == index }, "\(index + 1)/\(count)")
      }
    }
  }

  @Test func aShardJudgesOnlyItsFlowsAndShardOneTheRecordedFlowsOutsideThePlan() throws {
    let reports = try ShardFixtures.shardReports(3).map { entry in
      guard case .gate(let gate) = entry.report else { fatalError("a gate report") }
      return gate
    }
    #expect(
      reports.map(\.flows) == [
        ["auth", "forms", "ratio"], ["dashboard", "new-flow"], ["fanout-100k", "sync"],
      ])
    let notMeasured = reports.map { report in
      report.outcome.findings.filter {
        if case .flowNotMeasured = $0 { return true }
        return false
      }
    }
    #expect(notMeasured == [[.flowNotMeasured(flow: "gone")], [], []])
    #expect(
      reports[0].text.hasPrefix("weft-sim gate: shard 1/3 ran 3 of 7 flows: auth, forms, ratio\n"))
    #expect(
      reports[1].text.hasPrefix(
        "weft-sim gate: shard 2/3 ran 2 of 7 flows: dashboard, new-flow\nweft-sim gate: FAILED"))
    #expect(reports[2].files == ["Flows/fanout-100k.flow", "Flows/sync.flow"])
  }

  @Test(arguments: 1...8)
  func mergingEveryShardEqualsTheUnshardedGate(_ count: Int) throws {
    let whole = ShardFixtures.gate.check(
      ShardFixtures.observations(), shard: nil, plan: ShardFixtures.plan,
      files: ShardFixtures.files(ShardFixtures.plan), remeasure: ShardFixtures.rerun)
    // The fixture exercises every path: failures, notes, a re-measured ratio each way.
    #expect(!whole.passed)
    #expect(whole.outcome.findings.count == 7)
    #expect(whole.outcome.notes.count == 2)

    let merged = try SimulatorReport.merge(ShardFixtures.shardReports(count).reversed())
    guard case .gate(let gate) = merged else {
      Issue.record("merging gates gives a gate, got \(merged.kind)")
      return
    }
    #expect(gate.outcome == whole.outcome)
    #expect(gate.outcome.text == whole.outcome.text)
    #expect(gate.passed == whole.passed)
    #expect(gate.flows == whole.flows)
    #expect(gate.files == whole.files)
    #expect(gate.shards == (1...count).map { GateShard(index: $0, count: count)! })
    // One shard of one is the whole gate; it says so as a shard.
    guard count > 1 else { return }
    #expect(
      gate.text == "weft-sim gate: merged shards "
        + gate.shards.map(\.description).joined(separator: ", ") + " (7 flows)\n"
        + whole.outcome.text)
  }

  @Test func aMissingToolchainIsReportedOnceAfterTheMerge() throws {
    let gate = Gate(
      thresholds: ShardFixtures.thresholds(toolchain: "swift-9.9"),
      toolchain: SwiftToolchain(version: "6.3"))
    let whole = gate.check(
      ShardFixtures.observations(), shard: nil, plan: ShardFixtures.plan, files: [],
      remeasure: ShardFixtures.rerun)
    let merged = try SimulatorReport.merge(ShardFixtures.shardReports(3, gate: gate))
    guard case .gate(let report) = merged else {
      Issue.record("merging gates gives a gate")
      return
    }
    #expect(report.outcome.findings.count == 1)
    #expect(report.outcome == whole.outcome)
  }

  @Test func aPassingSplitMergesToAPass() throws {
    let gate = Gate(
      thresholds: ShardFixtures.gate.check(
        ShardFixtures.observations(), shard: nil, plan: ShardFixtures.plan, files: [],
        remeasure: ShardFixtures.rerun
      ).outcome.regenerated, toolchain: SwiftToolchain(version: "6.3"))
    let merged = try SimulatorReport.merge(ShardFixtures.shardReports(4, gate: gate))
    #expect(merged.exitCode == 0)
    let failing = try SimulatorReport.merge(ShardFixtures.shardReports(4))
    #expect(failing.exitCode == 1)
  }
}

@Suite("Gate shards: merges refused")
struct GateMergeRefusalTests {
  func message(_ reports: [(source: String, report: SimulatorReport)]) -> String? {
    do throws(ReportMergeError) {
      _ = try SimulatorReport.merge(reports)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func theSameShardTwiceOrAMissingShard() throws {
    let reports = try ShardFixtures.shardReports(3)
    #expect(
      message([reports[0], reports[1], (source: "copy.json", report: reports[1].report)])
        == "cannot merge: gate-2.json and copy.json are both shard 2/3")
    #expect(
      message([reports[0], reports[2]])
        == "cannot merge: missing shard 2/3 of the 3 (given: 1/3 in gate-1.json, 3/3 in "
        + "gate-3.json); merge every shard of the gate")
  }

  @Test func shardsOfDifferentSplitsPlansOrThresholds() throws {
    let three = try ShardFixtures.shardReports(3)
    let two = try ShardFixtures.shardReports(2)
    #expect(
      message([three[0], two[1]])
        == "cannot merge: gate-1.json is a shard of 3 but gate-2.json is shard 2/2: merge the "
        + "shards of one split")

    guard case .gate(var other) = three[1].report else { fatalError("a gate report") }
    other.plan.removeLast()
    #expect(
      message([three[0], ("other.json", .gate(other))])?.hasPrefix(
        "cannot merge: gate-1.json and other.json are shards of different gates: their flow "
          + "lists differ") == true)

    guard case .gate(var loose) = three[1].report else { fatalError("a gate report") }
    loose.outcome.regenerated.policy.ratchetPercent = 50
    #expect(
      message([three[0], ("loose.json", .gate(loose)), three[2]])
        == "cannot merge: gate-1.json and loose.json were judged against different thresholds "
        + "(t.json vs t.json); run every shard on the same checkout")
  }

  @Test func aWholeGateOrAnotherKindOfReport() throws {
    let whole = ShardFixtures.gate.check(
      ShardFixtures.observations(), shard: nil, plan: ShardFixtures.plan, files: [],
      remeasure: ShardFixtures.rerun)
    #expect(
      message([("whole.json", .gate(whole))])
        == "cannot merge: whole.json is the report of a whole gate, not of a shard; merge "
        + "combines the shard reports of one gate (weft-sim gate --shard K/N --json)")
    let shards = try ShardFixtures.shardReports(1)
    #expect(
      message([shards[0], ("sweep.json", .sweep(ReportFixtures.sweepReport()))])
        == "cannot merge: gate-1.json is a gate report but sweep.json is a sweep report; "
        + "merge reports of one kind (runs, sweeps or gates)")
  }

  @Test func aGateReportOfAnotherSchemaVersionIsNotRead() throws {
    let text = ShardFixtures.gate.check(
      [], shard: nil, plan: [], files: [], remeasure: ShardFixtures.rerun
    ).jsonText.replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 2")
    #expect(throws: ReportDecodingError.unsupportedVersion(2)) {
      try SimulatorReport.decode(Data(text.utf8))
    }
  }
}
