import Foundation
import HealthSimulator
import TestProcesses
import Testing

@testable import SimulatorGate
@testable import SimulatorKit
@testable import SimulatorReports

@Suite("weft-sim gate --shard and merge: arguments")
struct ShardAndMergeArgumentsTests {
  @Test func gateTakesAShardAndJSON() throws {
    var gate = GateArguments()
    gate.shard = GateShard(index: 2, count: 4)
    gate.json = true
    gate.flows = ["a.flow"]
    #expect(
      try SimulatorCommand.parse(["gate", "a.flow", "--shard", "2/4", "--json"]) == .gate(gate))
  }

  @Test func aBadShardIsAUsageErrorWithAHint() {
    let cases = [
      ("0/3", "shards are numbered from 1: --shard 1/3 ... --shard 3/3"),
      ("4/3", "there are only 3 shards: --shard 1/3 ... --shard 3/3"),
      ("x/y", "such as --shard 1/4 ... --shard 4/4"),
      ("3", "such as --shard 1/4 ... --shard 4/4"),
      ("1/0", "such as --shard 1/4 ... --shard 4/4"),
    ]
    for (text, hint) in cases {
      #expect(
        throws: UsageError(
          "--shard takes K/N, shard K of N with 1 <= K <= N, got '\(text)' (\(hint))",
          subcommand: .gate)
      ) { try SimulatorCommand.parse(["gate", "--shard", text]) }
    }
    #expect(throws: UsageError("--shard needs a value", subcommand: .gate)) {
      try SimulatorCommand.parse(["gate", "--shard"])
    }
    #expect(
      throws: UsageError(
        "--update records every flow, so it cannot run one shard (--shard 1/2); run "
          + "'gate --update' without --shard", subcommand: .gate)
    ) { try SimulatorCommand.parse(["gate", "--update", "--shard", "1/2"]) }
  }

  @Test func mergeTakesReportsAnOutputAndAFormat() throws {
    var merge = MergeArguments(reports: ["a.json", "b.json"])
    merge.output = "m.html"
    merge.format = .html
    #expect(
      try SimulatorCommand.parse([
        "merge", "a.json", "--output", "m.html", "b.json", "--format", "html",
      ])
        == .merge(merge))
    #expect(
      try SimulatorCommand.parse(["merge", "a.json"]) == .merge(MergeArguments(reports: ["a.json"]))
    )
    #expect(
      throws: UsageError(
        "merge needs the JSON reports to combine (from --json)", subcommand: .merge)
    ) { try SimulatorCommand.parse(["merge"]) }
    #expect(
      throws: UsageError(
        "--format takes table, json, html, got 'jsn'; did you mean 'json'?", subcommand: .merge)
    ) { try SimulatorCommand.parse(["merge", "a.json", "--format", "jsn"]) }
    #expect(
      throws: UsageError(
        "unknown option '--outptu' for merge; did you mean '--output'?", subcommand: .merge)
    ) { try SimulatorCommand.parse(["merge", "a.json", "--outptu", "x"]) }
  }

  @Test func helpListsMergeAndShard() {
    let overview = SimulatorHelp.text(nil, program: "weft-sim")
    #expect(overview.contains("\n  merge "))
    #expect(overview.contains("--shard K/N"))
    #expect(SimulatorHelp.text(.gate, program: "weft-sim").contains("--shard <k>/<n>"))
    #expect(SimulatorHelp.text(.gate, program: "weft-sim").contains("i mod n + 1"))
    #expect(
      SimulatorHelp.text(.merge, program: "weft-sim").contains(
        "USAGE: weft-sim merge <report.json> ..."))
    #expect(SimulatorHelp.text(.merge, program: "weft-sim").contains("--format <format>"))
  }
}

/// Kept serialized, no longer for WeftCore's engine state (each launch of the health app
/// now owns its monitor and delivery queue) but because this suite runs apps on threads in
/// this process, where a settle is a best effort (nothing committed for 20 ms): its runs side
/// by side starve each other's settles under load, and the counts it checks move (seen once,
/// at load 16: `viewsFollowTheRelaunchedApp` counted 10 re-renders instead of 5).
@Suite("weft-sim merge: runs and sweeps", .serialized)
@MainActor
struct MergeCommandTests {

  /// A fresh folder; the caller removes it.
  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-sim-merge-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  func write(_ report: RunReport, _ name: String, in folder: URL) throws -> String {
    let path = folder.appendingPathComponent(name).path
    try JSONRenderer().render(report).write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func merge(_ arguments: [String]) async -> (status: Int32, captured: Captured) {
    let captured = Captured()
    let status = await Simulator.main(
      ["merge"] + arguments, plugin: HealthSimulation.plugin, output: captured.output)
    return (status, captured)
  }

  @Test func runsMergeIntoOneListOrderedByFileWithTheVerdictOfAll() async throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var passing = ReportFixtures.sweepReport()
    passing.sweep = nil
    passing.file = "Flows/a.flow"
    let failing = ReportFixtures.fanOutReport()
    let b = try write(failing, "b.json", in: folder)
    let a = try write(passing, "a.json", in: folder)

    let json = await merge([b, a, "--format", "json"])
    #expect(json.status == 1)
    guard case .runs(let runs) = try SimulatorReport.decode(Data(json.captured.standard.utf8))
    else {
      Issue.record("merged runs are a runs report")
      return
    }
    #expect(runs.runs == [passing, failing])

    let table = await merge([a, b])
    #expect(table.status == 1)
    #expect(table.captured.standard.hasSuffix("merged 2 runs: FAILED (Flows/fanout-100k.flow)\n"))
    #expect(table.captured.standard.contains("Flows/a.flow · seed 1"))

    // A merged list merges again; a flow already in it is refused.
    let merged = folder.appendingPathComponent("runs.json").path
    let written = await merge([a, "--format", "json", "--output", merged])
    #expect(written.status == 0)
    #expect(written.captured.error == "merge: 1 report → \(merged): runs, passed")
    #expect(await merge([merged, b]).status == 1)
    let twice = await merge([merged, a])
    #expect(twice.status == 2)
    #expect(
      twice.captured.error
        == "error: cannot merge: Flows/a.flow was run in both \(merged) and \(a); merge each "
        + "flow's report once")

    let html = folder.appendingPathComponent("runs.html").path
    #expect(await merge([a, b, "--format", "html", "--output", html]).status == 1)
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("<p class=\"result fail\">FAILED (1 of 2 runs)</p>"))
  }

  @Test func sweepsSplitBySizeMergeIntoTheWholeSweep() async throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = ReportFixtures.sweepReport()
    let points = try #require(whole.sweep?.points)
    var small = whole
    small.sweep = SweepReport(points: points.filter { $0.views < 1_000 })
    var large = whole
    large.sweep = SweepReport(points: points.filter { $0.views >= 1_000 })
    let smallPath = try write(small, "small.json", in: folder)
    let largePath = try write(large, "large.json", in: folder)

    let json = await merge([largePath, smallPath, "--format", "json"])
    #expect(json.status == 0)
    #expect(try SimulatorReport.decode(Data(json.captured.standard.utf8)) == .sweep(whole))

    let twice = await merge([largePath, smallPath, largePath])
    #expect(twice.status == 2)
    #expect(
      twice.captured.error
        == "error: cannot merge: N = 1,000 was swept in both \(largePath) and \(largePath)")

    var other = small
    other.configuration.buildConfiguration = .debug
    let otherPath = try write(other, "debug.json", in: folder)
    let mixed = await merge([largePath, otherPath])
    #expect(mixed.status == 2)
    #expect(
      mixed.captured.error
        == "error: cannot merge: \(largePath) and \(otherPath) sweep different builds "
        + "(release vs debug); their costs do not compare")

    let run = try write(ReportFixtures.fanOutReport(), "run.json", in: folder)
    let kinds = await merge([smallPath, run])
    #expect(kinds.status == 2)
    #expect(
      kinds.captured.error
        == "error: cannot merge: \(smallPath) is a sweep report but \(run) is a run report; "
        + "merge reports of one kind (runs, sweeps or gates)")
  }

  @Test func unreadableOrForeignFilesExitTwoNamingTheFile() async throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("missing.json").path
    let result = await merge([missing])
    #expect(result.status == 2)
    #expect(result.captured.error.hasPrefix("error: cannot read '\(missing)'"))
    let thresholds = folder.appendingPathComponent("thresholds.json").path
    try GateThresholds().jsonText.write(toFile: thresholds, atomically: true, encoding: .utf8)
    let foreign = await merge([thresholds])
    #expect(foreign.status == 2)
    #expect(foreign.captured.error.hasPrefix("error: \(thresholds): not a weft-sim report"))
  }
}

/// The real binary: a gate split into shards on three bundled flows, merged, equals the same
/// gate run whole.
///
/// Kept serialized, and is not about WeftCore's engine state (that lives in the child
/// processes): the test runs the gate, whose ratios are timings, in child processes, and must
/// not share the CPU with another gate run of this suite.
@Suite("weft-sim gate --shard: the binary", .serialized)
struct ShardedGateBinaryTests {
  static var root: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
  }

  static var binary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("weft-sim")
  }

  typealias Result = ChildProcess.Result

  /// Runs the debug `weft-sim` without blocking the cooperative pool (`ChildProcess`).
  func run(_ arguments: [String]) async throws -> Result {
    try await ChildProcess.run(Self.binary, arguments, in: Self.root)
  }

  @Test func mergingEveryShardGivesTheUnshardedVerdictAndFindings() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-sim-shards-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let flows = ["Flows/forms.flow", "Flows/auth.flow", "Flows/login-to-sync.flow"]
    // Thresholds recorded by this binary, with one count made stale so the gate has findings
    // to merge, and a ratio tolerance no loaded machine reaches (ratios are timings).
    let thresholdsPath = folder.appendingPathComponent("thresholds.json").path
    let update = try await run(["gate"] + flows + ["--update", "--thresholds", thresholdsPath])
    try #require(update.status == 0, "\(update.error)")
    var thresholds = try GateThresholds.load(path: thresholdsPath)
    thresholds.policy.ratioTolerance = 1_000
    let key = SwiftToolchain.current.thresholdsKey
    let recorded = try #require(thresholds.toolchains[key]?.flows["auth"]?.counts["commits"])
    thresholds.toolchains[key]?.flows["auth"]?.counts["commits"] = recorded - 1
    try thresholds.write(path: thresholdsPath)

    let whole = try await run(["gate"] + flows + ["--thresholds", thresholdsPath, "--json"])
    #expect(whole.status == 1)
    guard case .gate(let wholeReport) = try SimulatorReport.decode(Data(whole.standard.utf8))
    else {
      Issue.record("gate --json prints a gate report")
      return
    }
    #expect(wholeReport.outcome.failures.count == 1)
    #expect(wholeReport.plan == ["auth", "forms", "login-to-sync", "fanout-ratio"])

    var shardFiles: [String] = []
    for index in 1...3 {
      let shard = try await run(
        ["gate"] + flows + ["--thresholds", thresholdsPath, "--shard", "\(index)/3", "--json"])
      #expect(shard.status == (index == 1 ? 1 : 0), "\(shard.error)")
      let path = folder.appendingPathComponent("gate-\(index).json").path
      try shard.standard.write(toFile: path, atomically: true, encoding: .utf8)
      shardFiles.append(path)
    }
    let first = try await run(
      ["gate"] + flows + ["--thresholds", thresholdsPath, "--shard", "1/3"])
    #expect(
      first.standard.hasPrefix("weft-sim gate: shard 1/3 ran 2 of 4 flows: auth, fanout-ratio\n"))

    let merged = try await run(["merge"] + shardFiles.reversed() + ["--format", "json"])
    #expect(merged.status == 1)
    guard case .gate(let mergedReport) = try SimulatorReport.decode(Data(merged.standard.utf8))
    else {
      Issue.record("merging gate shards gives a gate report")
      return
    }
    #expect(mergedReport.passed == wholeReport.passed)
    #expect(mergedReport.outcome.findings == wholeReport.outcome.findings)
    #expect(mergedReport.outcome.flowsChecked == wholeReport.outcome.flowsChecked)
    #expect(mergedReport.outcome.countsChecked == wholeReport.outcome.countsChecked)
    #expect(mergedReport.outcome.ratiosChecked == wholeReport.outcome.ratiosChecked)
    #expect(mergedReport.flows == wholeReport.flows)
    #expect(mergedReport.files == wholeReport.files)

    let table = try await run(["merge"] + shardFiles)
    #expect(table.status == 1)
    #expect(table.standard.hasPrefix("weft-sim gate: merged shards 1/3, 2/3, 3/3 (4 flows)\n"))
    #expect(
      table.standard.contains(
        "auth  commits: expected \(Int(recorded) - 1), actual \(Int(recorded))"))

    let partial = try await run(["merge", shardFiles[0], shardFiles[2]])
    #expect(partial.status == 2)
    #expect(partial.error.hasPrefix("error: cannot merge: missing shard 2/3 of the 3"))
  }
}
