import Foundation
import TestProcesses
import Testing
import WeftCore

@testable import HealthSimulator
@testable import SimulatorKit
@testable import SimulatorReports

/// weft-sim behaves like a swift-argument-parser tool (issue 19, "tool manners"): usage on
/// no arguments, `--version`, per-subcommand help, and a report that states what the run
/// actually did (the seed used, steps numbered from 1 everywhere).
@Suite("weft-sim tool manners: arguments")
struct ToolMannersArgumentTests {
  @Test func noArgumentsIsAUsageError() {
    #expect(throws: UsageError("missing a flow file or a subcommand")) {
      try SimulatorCommand.parse([])
    }
    let text = UsageError("missing a flow file or a subcommand").description
    #expect(text.hasPrefix("error: missing a flow file or a subcommand\n\nUSAGE: weft-sim"))
    #expect(text.hasSuffix("See 'weft-sim --help' for more information."))
  }

  @Test func versionIsAFlagOfItsOwn() throws {
    #expect(try SimulatorCommand.parse(["--version"]) == .version)
    #expect(throws: UsageError("--version takes no other arguments, got 'x.flow'")) {
      try SimulatorCommand.parse(["--version", "x.flow"])
    }
  }

  @Test(arguments: SimulatorSubcommand.allCases)
  func everySubcommandHasHelpThreeWays(_ subcommand: SimulatorSubcommand) throws {
    let name = subcommand.rawValue
    #expect(try SimulatorCommand.parse([name, "--help"]) == .help(subcommand))
    #expect(try SimulatorCommand.parse([name, "-h"]) == .help(subcommand))
    #expect(try SimulatorCommand.parse(["help", name]) == .help(subcommand))
  }

  @Test func helpAfterOtherArgumentsIsStillThatSubcommandsHelp() throws {
    #expect(try SimulatorCommand.parse(["run", "f.flow", "--json", "--help"]) == .help(.run))
    #expect(try SimulatorCommand.parse(["f.flow", "-h"]) == .help(.run))
    #expect(try SimulatorCommand.parse(["sweep", "--views", "1k", "-h"]) == .help(.sweep))
    #expect(try SimulatorCommand.parse(["check", "--help"]) == .help(.check))
    #expect(try SimulatorCommand.parse(["help"]) == .help(nil))
    #expect(try SimulatorCommand.parse(["-h"]) == .help(nil))
  }

  @Test func aMistypedSubcommandIsNamedWithTheNearestOne() {
    #expect(
      throws: UsageError(
        "unknown subcommand 'rnu'; did you mean 'run'? "
          + "(subcommands: run, check, sweep, gate, merge, explore, help)")
    ) { try SimulatorCommand.parse(["rnu", "Flows/auth.flow"]) }
    #expect(
      throws: UsageError(
        "unknown subcommand 'swep'; did you mean 'sweep'? "
          + "(subcommands: run, check, sweep, gate, merge, explore, help)", subcommand: .help)
    ) { try SimulatorCommand.parse(["help", "swep"]) }
    // A path is a flow file, whatever it looks like.
    #expect(throws: Never.self) { try SimulatorCommand.parse(["./rnu"]) }
  }

  @Test func gateTakesJSONNowThatItPrintsAReport() throws {
    var gate = GateArguments()
    gate.json = true
    #expect(try SimulatorCommand.parse(["gate", "--json"]) == .gate(gate))
    #expect(
      throws: UsageError(
        "unknown option '--jsn' for gate; did you mean '--json'?", subcommand: .gate)
    ) { try SimulatorCommand.parse(["gate", "--jsn"]) }
  }

  @Test func eachHelpPageNamesItsOwnUsageAndOptions() {
    let pages = SimulatorSubcommand.allCases.map { SimulatorHelp.text($0, program: "weft-sim") }
    #expect(Set(pages).count == pages.count)
    #expect(SimulatorHelp.text(.run, program: "weft-sim").contains("USAGE: weft-sim [run] <flow>"))
    #expect(SimulatorHelp.text(.run, program: "weft-sim").contains("--seed <n>"))
    #expect(
      SimulatorHelp.text(.sweep, program: "weft-sim").contains("USAGE: weft-sim sweep <flow>"))
    #expect(SimulatorHelp.text(.sweep, program: "weft-sim").contains("--views <sizes>"))
    #expect(SimulatorHelp.text(.gate, program: "weft-sim").contains("--thresholds <file>"))
    #expect(
      SimulatorHelp.text(.check, program: "weft-sim").contains("USAGE: weft-sim check <flow> ..."))
    #expect(
      SimulatorHelp.text(.help, program: "weft-sim").contains("USAGE: weft-sim help [<subcommand>]")
    )
    let overview = SimulatorHelp.text(nil, program: "weft-sim")
    for subcommand in SimulatorSubcommand.allCases {
      #expect(overview.contains("\n  \(subcommand.rawValue) "))
    }
    #expect(overview.contains("--version"))
    #expect(overview.contains(Weft.version))
  }
}

/// Kept serialized, no longer for WeftCore's engine state (each launch of the health app
/// now owns its monitor and delivery queue) but because this suite runs apps on threads in
/// this process, where a settle is a best effort (nothing committed for 20 ms): its runs side
/// by side starve each other's settles under load, and the counts it checks move (seen once,
/// at load 16: `viewsFollowTheRelaunchedApp` counted 10 re-renders instead of 5).
@Suite("weft-sim tool manners: runs", .serialized)
@MainActor
struct ToolMannersRunTests {

  static let threeSteps = "views 10 observe app.tab\ntab health\nexpect app.tab == insights\n"

  @Test func noArgumentsPrintsUsageToStandardErrorAndReturnsTwo() async {
    let captured = Captured()
    #expect(await Simulator.main([], plugin: HealthSimulation.plugin, output: captured.output) == 2)
    #expect(captured.standard.isEmpty)
    #expect(captured.error.contains("USAGE: weft-sim [run] <flow>"))
  }

  @Test func versionPrintsWeftVersion() async {
    let captured = Captured()
    #expect(
      await Simulator.main(["--version"], plugin: HealthSimulation.plugin, output: captured.output)
        == 0)
    #expect(captured.standard == Weft.version)
    #expect(captured.error.isEmpty)
  }

  @Test(arguments: SimulatorSubcommand.allCases)
  func subcommandHelpGoesToStandardOutputWithZero(_ subcommand: SimulatorSubcommand) async {
    let captured = Captured()
    #expect(
      await Simulator.main(
        [subcommand.rawValue, "--help"], plugin: HealthSimulation.plugin, output: captured.output)
        == 0)
    // The subcommand's page, then (for run) the loaded app's flow commands.
    #expect(
      captured.standard
        == SimulatorHelp.text(subcommand, program: "weft-sim")
        + SimulatorHelp.commands(of: HealthSimulation.plugin, for: subcommand))
    #expect(captured.standard.contains("FLOW COMMANDS (health)") == (subcommand == .run))
    #expect(captured.error.isEmpty)
  }

  @Test func theHeaderShowsTheSeedTheRunUsed() async throws {
    let seeded = try temporaryFlowFile("seed 7\n" + Self.threeSteps)
    let unseeded = try temporaryFlowFile(Self.threeSteps)
    let html = seeded + ".html"
    defer {
      for path in [seeded, unseeded, html] { try? FileManager.default.removeItem(atPath: path) }
    }
    // --seed overrides the flow's `seed 7`: every format says 9.
    let table = Captured()
    _ = await Simulator.main(
      [seeded, "--seed", "9", "--html", html], plugin: HealthSimulation.plugin, output: table.output
    )
    #expect(table.standard.contains("· \(seeded) · seed 9\n"))
    #expect(try String(contentsOfFile: html, encoding: .utf8).contains(" · seed 9 · "))
    let json = Captured()
    _ = await Simulator.main(
      [seeded, "--seed", "9", "--json"], plugin: HealthSimulation.plugin, output: json.output)
    #expect(try JSONRenderer().decode(Data(json.standard.utf8)).seed == 9)
    // The flow's own seed.
    let own = Captured()
    _ = await Simulator.main(
      [seeded, "--json"], plugin: HealthSimulation.plugin, output: own.output)
    #expect(try JSONRenderer().decode(Data(own.standard.utf8)).seed == 7)
    // Neither: the default, 1 (the report said 0 while the app ran with 1).
    let fallback = Captured()
    _ = await Simulator.main(
      [unseeded, "--json"], plugin: HealthSimulation.plugin, output: fallback.output)
    #expect(try JSONRenderer().decode(Data(fallback.standard.utf8)).seed == Simulator.defaultSeed)
  }

  @Test func stepsAreNumberedFromOneInTableJSONFailuresAndTrace() async throws {
    let flow = try temporaryFlowFile(Self.threeSteps)
    let trace = flow + ".trace"
    defer {
      for path in [flow, trace] { try? FileManager.default.removeItem(atPath: path) }
    }
    let json = Captured()
    #expect(
      await Simulator.main(
        [flow, "--json", "--trace", trace], plugin: HealthSimulation.plugin, output: json.output)
        == 1)
    let report = try JSONRenderer().decode(Data(json.standard.utf8))
    #expect(report.steps.map(\.index) == [1, 2, 3])
    #expect(report.failures.map(\.step) == [3])
    #expect(report.steps[2].source == "expect app.tab == insights")
    let traceNumbers = try String(contentsOfFile: trace, encoding: .utf8)
      .split(separator: "\n").map { $0.prefix { $0 != " " } }
    #expect(traceNumbers == ["1", "2", "3"])

    let table = Captured()
    #expect(
      await Simulator.main(
        [flow, "--no-progress"], plugin: HealthSimulation.plugin, output: table.output) == 1)
    let rows = table.standard.split(separator: "\n")
      .filter { $0.contains("observe app.tab") || $0.contains("tab health") }
      .map { $0.split(separator: " ").first.map(String.init) }
    #expect(rows.prefix(2) == ["1", "2"])
    #expect(table.standard.contains(":3:1 (step 3) error: expectation failed: app.tab is "))
  }

  /// `skipped` is defined (docs/simulator-report.md) as the views attached at the end of a
  /// step that did not re-render in it, evaluated or not: the gate's thresholds count that.
  @Test func skippedCountsAttachedViewsThatDidNotReRender() async throws {
    let flow = try temporaryFlowFile(
      "views 10 observe app.tab\nviews 5 observe app.sheet\ntab health\ntab health\n")
    defer { try? FileManager.default.removeItem(atPath: flow) }
    let json = Captured()
    #expect(
      await Simulator.main([flow, "--json"], plugin: HealthSimulation.plugin, output: json.output)
        == 0)
    let steps = try JSONRenderer().decode(Data(json.standard.utf8)).steps
    // Attaching renders nothing: all attached views count as skipped.
    #expect(steps.map(\.metrics.viewsSkipped).prefix(2) == [10, 15])
    // A tab change re-renders the 10 tab views; the 5 sheet views were never evaluated
    // against a change of theirs, and still count.
    #expect(steps[2].metrics.viewsRerendered == 10)
    #expect(steps[2].metrics.viewsSkipped == 5)
    // Selecting the same tab again changes nothing: every view is skipped.
    #expect(steps[3].metrics.viewsRerendered == 0)
    #expect(steps[3].metrics.viewsSkipped == 15)
  }

  @Test func theSimulatedDatabaseIsAFileInAFreshTemporaryFolder() async throws {
    let app = try await HealthSimulation.make(seed: 1)
    let database = app.folder.appendingPathComponent("app.sqlite").path
    let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
    #expect(app.folder.standardizedFileURL.path.hasPrefix(temporary))
    #expect(app.folder.lastPathComponent.hasPrefix("weft-sim-"))
    #expect(FileManager.default.fileExists(atPath: database))
    await app.shutDown()
    #expect(!FileManager.default.fileExists(atPath: app.folder.path))
  }
}

/// The built `weft-sim` binary, run as a child process: exit codes and which stream.
@Suite("weft-sim tool manners: the binary")
struct ToolMannersBinaryTests {
  typealias Result = ChildProcess.Result

  /// `weft-sim`, next to this test bundle in the build folder.
  static var binary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("weft-sim")
  }

  /// Runs the debug `weft-sim` without blocking the cooperative pool (`ChildProcess`).
  func run(_ arguments: [String]) async throws -> Result {
    try await ChildProcess.run(Self.binary, arguments)
  }

  @Test func theBinaryIsBuilt() {
    #expect(
      FileManager.default.isExecutableFile(atPath: Self.binary.path),
      "build it first: swift build --build-tests (looked at \(Self.binary.path))")
  }

  @Test func noArgumentsExitsTwoWithUsageOnStandardError() async throws {
    let result = try await run([])
    #expect(result.status == 2)
    #expect(result.standard.isEmpty)
    #expect(result.error.hasPrefix("error: missing a flow file or a subcommand\n\nUSAGE:"))
  }

  @Test func versionExitsZeroWithTheVersion() async throws {
    let result = try await run(["--version"])
    #expect(result.status == 0)
    #expect(result.standard == Weft.version + "\n")
    #expect(result.error.isEmpty)
  }

  @Test(arguments: ["run", "check", "sweep", "gate", "help"])
  func subcommandHelpExitsZeroOnStandardOutput(_ name: String) async throws {
    for arguments in [[name, "--help"], [name, "-h"], ["help", name]] {
      let result = try await run(arguments)
      #expect(result.status == 0, "\(arguments)")
      #expect(result.standard.contains("USAGE: weft-sim"), "\(arguments)")
      #expect(result.error.isEmpty, "\(arguments)")
    }
  }

  @Test func aMistypedSubcommandExitsTwoAndSuggests() async throws {
    let result = try await run(["rnu"])
    #expect(result.status == 2)
    #expect(result.error.hasPrefix("error: unknown subcommand 'rnu'; did you mean 'run'?"))
  }
}
