import Foundation
import TestProcesses
import Testing

@testable import HealthSimulator
@testable import SimulatorKit
@testable import SimulatorReports

@Suite("weft-sim arguments")
struct SimulatorArgumentsTests {
  /// `--name=value` and `--name value` are the same, as with swift-argument-parser.
  @Test func optionsTakeTheirValueAfterAnEqualsSignToo() throws {
    var expected = RunArguments(flow: "Flows/auth.flow")
    expected.seed = 3
    expected.html = "a=b.html"
    expected.scheduleSeed = 9
    #expect(
      try SimulatorCommand.parse([
        "Flows/auth.flow", "--seed=3", "--html=a=b.html", "--schedule-seed=9",
      ]) == .run(expected))
    var explore = ExploreArguments(flow: "f.flow")
    explore.schedules = 20
    #expect(
      try SimulatorCommand.parse(["explore", "f.flow", "--schedules=20"]) == .explore(explore))
    #expect(throws: UsageError("--seed needs a whole number, got ''", subcommand: .run)) {
      try SimulatorCommand.parse(["Flows/auth.flow", "--seed="])
    }
  }

  /// A plug-in's own options: `--NAME VALUE` or `--NAME=VALUE` for run and explore, in
  /// `SimulationLaunch.options` with defaults filled in, suggested on a typo.
  @Test func aPluginsLaunchOptionsAreParsedAndSuggested() throws {
    let room = LaunchOption("room", summary: "The room.", default: "general")
    var expected = RunArguments(flow: "f.flow")
    expected.launchOptions = ["room": "r42"]
    #expect(
      try SimulatorCommand.parse(["f.flow", "--room", "r42"], launchOptions: [room])
        == .run(expected))
    #expect(
      try SimulatorCommand.parse(["run", "f.flow", "--room=r42"], launchOptions: [room])
        == .run(expected))
    var explore = ExploreArguments(flow: "f.flow")
    explore.launchOptions = ["room": "r1"]
    #expect(
      try SimulatorCommand.parse(["explore", "f.flow", "--room", "r1"], launchOptions: [room])
        == .explore(explore))
    #expect(
      throws: UsageError(
        "unknown option '--rom' for run; did you mean '--room'?", subcommand: .run)
    ) { try SimulatorCommand.parse(["f.flow", "--rom", "x"], launchOptions: [room]) }
    #expect(throws: UsageError.self) { try SimulatorCommand.parse(["f.flow", "--room", "x"]) }
    #expect(LaunchOption.resolve([:], among: [room]) == ["room": "general"])
    #expect(LaunchOption.resolve(["room": "b"], among: [room]) == ["room": "b"])
  }

  @Test func theHealthPluginsLatencyOptionIsInItsHelpAndChecked() async {
    let help = Captured()
    #expect(
      await Simulator.main(["run", "--help"], plugin: HealthSimulation.plugin, output: help.output)
        == 0)
    #expect(help.standard.contains("APP OPTIONS (health; run and explore):"))
    #expect(help.standard.contains("--latency <duration>"))
    #expect(throws: SimulationError.self) { try HealthSimulation.latency("fast") }
    #expect((try? HealthSimulation.latency("250ms")) == .milliseconds(250))
    #expect((try? HealthSimulation.latency(nil)) == .milliseconds(40))
  }

  @Test func defineTakesNameEqualsValueAndRepeats() throws {
    var expected = RunArguments(flow: "f.flow")
    expected.defines = ["users": "1000", "who": "a=b", "empty": ""]
    #expect(
      try SimulatorCommand.parse([
        "f.flow", "--define", "users=1000", "--define=who=a=b", "--define", "empty=",
      ]) == .run(expected))
    var explore = ExploreArguments(flow: "f.flow")
    explore.defines = ["n": "3"]
    #expect(
      try SimulatorCommand.parse(["explore", "f.flow", "--define", "n=3"]) == .explore(explore))
    #expect(
      throws: UsageError(
        "--define needs NAME=VALUE, got 'users' (read in the flow as $NAME)", subcommand: .run)
    ) { try SimulatorCommand.parse(["f.flow", "--define", "users"]) }
    #expect(
      throws: UsageError(
        "--define: '9x' is not a variable name (letters, digits and _, not starting with a "
          + "digit)", subcommand: .run)
    ) { try SimulatorCommand.parse(["f.flow", "--define", "9x=1"]) }
  }

  @Test func runIsTheDefaultVerbAndTakesItsOptions() throws {
    var expected = RunArguments(flow: "Flows/auth.flow")
    expected.seed = 7
    expected.explain = true
    expected.json = true
    expected.html = "out.html"
    expected.trace = "trace.txt"
    expected.deterministic = true
    expected.progress = false
    let arguments = [
      "Flows/auth.flow", "--seed", "7", "--explain", "--json", "--html", "out.html", "--trace",
      "trace.txt", "--deterministic", "--no-progress",
    ]
    #expect(try SimulatorCommand.parse(arguments) == .run(expected))
    #expect(try SimulatorCommand.parse(["run"] + arguments) == .run(expected))
  }

  @Test func sweepSizesTakeSuffixes() throws {
    let command = try SimulatorCommand.parse(["sweep", "f.flow", "--views", "1,10,1k,100k,1M"])
    #expect(
      command == .sweep(SweepArguments(flow: "f.flow", views: [1, 10, 1_000, 100_000, 1_000_000])))
  }

  @Test func gateAndCheckAndHelp() throws {
    var gate = GateArguments()
    gate.update = true
    gate.thresholds = "t.json"
    #expect(
      try SimulatorCommand.parse(["gate", "--update", "--thresholds", "t.json"]) == .gate(gate))
    #expect(
      try SimulatorCommand.parse(["check", "a.flow", "b.flow"]) == .check(["a.flow", "b.flow"]))
    #expect(try SimulatorCommand.parse(["--help"]) == .help(nil))
  }

  @Test func usageErrorsNameTheArgumentAndSuggest() {
    #expect(
      throws: UsageError(
        "unknown option '--explian' for run; did you mean '--explain'?", subcommand: .run)
    ) {
      try SimulatorCommand.parse(["f.flow", "--explian"])
    }
    #expect(throws: UsageError("--seed needs a whole number, got 'x'", subcommand: .run)) {
      try SimulatorCommand.parse(["f.flow", "--seed", "x"])
    }
    #expect(throws: UsageError("no flow file given", subcommand: .run)) {
      try SimulatorCommand.parse(["--json"])
    }
    #expect(
      throws: UsageError(
        "--views takes sizes like 1,10,100,1k,10k,100k,1M (1 to 10M); '2q' is not one",
        subcommand: .sweep)
    ) {
      try SimulatorCommand.parse(["sweep", "f.flow", "--views", "1,2q"])
    }
  }
}

/// Kept serialized, no longer for WeftCore's engine state (each launch of the health app
/// now owns its monitor and delivery queue) but because this suite runs apps on threads in
/// this process, where a settle is a best effort (nothing committed for 20 ms): its runs side
/// by side starve each other's settles under load, and the counts it checks move (seen once,
/// at load 16: `viewsFollowTheRelaunchedApp` counted 10 re-renders instead of 5).
@Suite("weft-sim exit codes", .serialized)
@MainActor
struct SimulatorExitCodeTests {

  @Test func helpIsZeroAndUsageErrorIsTwo() async {
    let help = Captured()
    #expect(
      await Simulator.main(["--help"], plugin: HealthSimulation.plugin, output: help.output) == 0)
    #expect(help.standard.hasPrefix("OVERVIEW: weft-sim"))
    let usage = Captured()
    #expect(
      await Simulator.main(["--nope"], plugin: HealthSimulation.plugin, output: usage.output) == 2)
    #expect(usage.error.hasPrefix("error: unknown option '--nope' for run"))
  }

  @Test func aFlowWithATypoIsTwoWithFileLineColumnAndAHint() async throws {
    let path = try temporaryFlowFile("tab dashboard\nlogn email=a@b.c password=x\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let captured = Captured()
    #expect(
      await Simulator.main(
        [path, "--no-progress"], plugin: HealthSimulation.plugin, output: captured.output) == 2)
    #expect(captured.error.contains("\(path):2:1: error: unknown command 'logn'"))
    #expect(captured.error.contains("hint: did you mean 'login'?"))
  }

  @Test func aPassingFlowIsZeroAndAFailedExpectationIsOne() async throws {
    let passing = try temporaryFlowFile("tab dashboard\nexpect app.tab == dashboard\n")
    let failing = try temporaryFlowFile("tab dashboard\nexpect app.tab == profile\n")
    defer {
      try? FileManager.default.removeItem(atPath: passing)
      try? FileManager.default.removeItem(atPath: failing)
    }
    let ok = Captured()
    #expect(
      await Simulator.main(
        [passing, "--no-progress"], plugin: HealthSimulation.plugin, output: ok.output) == 0)
    #expect(ok.standard.contains("result: passed"))
    let bad = Captured()
    #expect(
      await Simulator.main(
        [failing, "--json"], plugin: HealthSimulation.plugin, output: bad.output) == 1)
    let report = try JSONRenderer().decode(Data(bad.standard.utf8))
    #expect(report.failures.first?.expectation?.actual == "dashboard")
  }

  /// Runs the built `weft-sim` in a child process, on the deterministic runtime: the trace is a
  /// function of the seed there. (In this test process the app runs on threads, where a
  /// settle is a best effort — nothing committed for 20 ms — so a step's trace line can catch
  /// the app mid-login under load.)
  @Test func sameSeedGivesTheSameTrace() async throws {
    let flow = try temporaryFlowFile(
      "seed 3\nlogin email=ada@example.com password=correct-horse\n"
        + "wait auth.state == authenticated\nopen dashboard range=week\n")
    defer { try? FileManager.default.removeItem(atPath: flow) }
    var traces: [String] = []
    // On the deterministic runtime (the built weft-sim): in this process, on threads, a
    // step's settle is a best effort and a trace may catch a request in flight.
    for _ in 0..<2 {
      let trace = flow + ".trace"
      defer { try? FileManager.default.removeItem(atPath: trace) }
      let result = try await ChildProcess.run(
        ToolMannersBinaryTests.binary, [flow, "--trace", trace, "--no-progress"])
      #expect(result.status == 0, "\(result.standard)\(result.error)")
      traces.append(try String(contentsOfFile: trace, encoding: .utf8))
    }
    #expect(traces[0] == traces[1])
    #expect(traces[0].contains("auth.state=authenticated"))
  }
}
