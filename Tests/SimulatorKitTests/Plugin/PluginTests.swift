import Foundation
import HealthSimulator
import Synchronization
import Testing

@testable import SimulatorFlow
@testable import SimulatorKit
@testable import SimulatorReports

/// A third plug-in, on `FakeApp`: one command with an argument of every kind (and a literal),
/// a rule between arguments, and commands whose `perform` throws.
enum Probe {
  static let category = FlowCommand.Category("probe", title: "Probe commands")

  /// The arguments `probe` was last performed with.
  static let received = Mutex<[CommandArguments]>([])

  /// An error that is not a `SimulationError`.
  struct Boom: Error, CustomStringConvertible {
    var description: String { "the probe blew up" }
  }

  static let commands: [AppCommand<FakeApp>] = [
    AppCommand(
      "probe", summary: "Takes an argument of every kind.", category: category,
      arguments: [
        .positional("count", .integer(1...10)), .positional("ratio", .number(0...1)),
        .literal("as"), .positional("mode", .word(["fast", "slow"])),
        .keyword("label", .text), .keyword("name", .name), .keyword("after", .duration),
        .keyword("on", .date), .keyword("enabled", .boolean), .keyword("at", .contextPath),
        .keyword("size", .integer(0...100), required: true),
      ],
      check: { (arguments) throws(ArgumentProblem) in
        if arguments.text("label") == "bad" {
          throw ArgumentProblem("label= must not be bad", at: "label", hint: "pick another")
        }
        if arguments.text("mode") == "slow", arguments.integer("count") == 10 {
          throw ArgumentProblem("ten is too many when slow")
        }
      },
      perform: { app, arguments in
        received.withLock { $0.append(arguments) }
        let size = try arguments.requiredInteger("size")
        app.cell.update { $0.a = "probed \(size)" }
      }),
    AppCommand("explode", summary: "Throws a plain error.", category: category) { _, _ in
      throw Boom()
    },
    AppCommand("refuse", summary: "Throws a simulation error.", category: category) { _, _ in
      throw SimulationError("the probe refuses")
    },
    AppCommand("misread", summary: "Reads an argument it did not declare.", category: category) {
      _, arguments in
      _ = try arguments.requiredText("nothing")
    },
  ]

  static let plugin = SimulatorPlugin(name: "probe", commands: commands) { _ in FakeApp() }

  static var options: Flow.ParseOptions { Flow.ParseOptions(commands: plugin.catalog) }

  static func parse(_ source: String) throws(FlowError) -> [StepKind] {
    try Flow.parse(source: source, file: "probe.flow", options: options).steps.map(\.kind)
  }

  static func error(_ source: String) -> FlowError? {
    do {
      _ = try parse(source)
      return nil
    } catch {
      return error
    }
  }
}

@Suite("Plug-in API")
struct PluginTests {
  static let full =
    "probe 3 0.5 as fast label=\"hi there\" name=box after=1m30s on=2026-01-10 enabled=off "
    + "at=global/C size=7"

  @Test func everyArgumentKindParsesToItsValue() throws {
    let kinds = try Probe.parse(Self.full)
    let expected = CommandArguments([
      "count": .integer(3), "ratio": .number(0.5), "mode": .word("fast"),
      "label": .text("hi there"), "name": .text("box"), "after": .duration(.seconds(90)),
      "on": .date(FlowTesting.date(2026, 1, 10)), "enabled": .boolean(false),
      "at": .text("global/C"), "size": .integer(7),
    ])
    #expect(kinds == [.app(AppStep("probe", expected))])
    // The accessors read each kind; numbers widen integers, text reads words.
    guard case .app(let step) = kinds.first else { return }
    let arguments = step.arguments
    #expect(arguments.integer("count") == 3)
    #expect(arguments.number("count") == 3)
    #expect(arguments.number("ratio") == 0.5)
    #expect(arguments.text("mode") == "fast")
    #expect(arguments.duration("after") == .seconds(90))
    #expect(arguments.date("on") == FlowTesting.date(2026, 1, 10))
    #expect(arguments.boolean("enabled") == false)
    #expect(arguments.text("size") == nil)
    #expect(!arguments.has("nothing"))
    #expect(throws: SimulationError.self) { try arguments.requiredDuration("size") }
  }

  @Test func keywordsKeepTheOrderWrittenAndOptionalOnesMayBeLeftOut() throws {
    let kinds = try Probe.parse("probe 9 1 as slow size=0 enabled=on; probe 1 0 as fast size=100")
    #expect(
      kinds == [
        .app(
          AppStep(
            "probe",
            CommandArguments([
              "count": .integer(9), "ratio": .number(1), "mode": .word("slow"),
              "size": .integer(0), "enabled": .boolean(true),
            ]))),
        .app(
          AppStep(
            "probe",
            CommandArguments([
              "count": .integer(1), "ratio": .number(0), "mode": .word("fast"),
              "size": .integer(100),
            ]))),
      ])
    // The same values in another order are another step: the order written is kept.
    let swapped = try Probe.parse("probe 9 1 as slow enabled=on size=0")
    #expect(swapped != [kinds[0]])
    // The check runs on the values: ten is refused only with `slow`.
    #expect(Probe.error("probe 10 1 as slow size=0")?.message == "ten is too many when slow")
    #expect(Probe.error("probe 10 1 as fast size=0") == nil)
  }

  @Test func aMissingRequiredKeywordIsAnError() throws {
    let error = try #require(Probe.error("probe 3 0.5 as fast label=x"))
    #expect(error.kind == .missingArgument)
    #expect(error.message == "missing argument 'size=' for 'probe'")
    #expect(error.location.column == 1)
  }

  @Test func aValueOfTheWrongKindPointsAtTheValue() throws {
    let word = try #require(Probe.error("probe many 0.5 as fast size=1"))
    #expect(word.kind == .wrongValueKind)
    #expect(word.location.column == 7)
    let range = try #require(Probe.error("probe 3 1.5 as fast size=1"))
    #expect(range.kind == .valueOutOfRange)
    #expect(range.location.column == 9)
    let duration = try #require(Probe.error("probe 3 0.5 as fast size=1 after=soon"))
    #expect(duration.location.column == 34)
    let empty = try #require(Probe.error("probe 3 0.5 as fast size=1 name=\"\""))
    #expect(empty.kind == .wrongValueKind)
    #expect(empty.message.contains("name="))
    let literal = try #require(Probe.error("probe 3 0.5 so fast size=1"))
    #expect(literal.location.column == 13)
  }

  @Test func aMistypedWordSuggestsTheNearest() throws {
    let error = try #require(Probe.error("probe 3 0.5 as fsat size=1"))
    #expect(error.kind == .unknownEnumWord)
    #expect(error.message == "unknown mode 'fsat'")
    #expect(error.hint == "did you mean 'fast'?")
    #expect(error.location.column == 16)
    let far = try #require(Probe.error("probe 3 0.5 as zzzzzzzz size=1"))
    #expect(far.hint == "expected one of: fast, slow")
  }

  @Test func anArgumentProblemPointsAtTheArgumentItNames() throws {
    let source = "probe 3 0.5 as fast size=1 label=bad"
    let error = try #require(Probe.error(source))
    #expect(error.kind == .unexpectedArgument)
    #expect(error.message == "label= must not be bad")
    #expect(error.hint == "pick another")
    #expect(error.location.line == 1)
    // A problem with a value points at the value, like every other value error.
    #expect(error.location.column == 34)
    #expect(
      error.description == """
        probe.flow:1:34: error: label= must not be bad
            1 | probe 3 0.5 as fast size=1 label=bad
              |                                  ^~~
        hint: pick another
        """)
    // A problem naming no argument points at the command, with the usage as its hint.
    let general = try #require(Probe.error("log x\n  probe 10 0 as slow size=1"))
    #expect(general.location.line == 2)
    #expect(general.location.column == 3)
    #expect(general.hint?.hasPrefix("usage: probe N NUMBER as fast|slow [label=TEXT]") == true)
  }

  @Test func anUnknownCommandSuggestsAPluginCommand() throws {
    let error = try #require(Probe.error("prbe 3 0.5 as fast size=1"))
    #expect(error.kind == .unknownCommand)
    #expect(error.message == "unknown command 'prbe'")
    #expect(error.hint?.contains("'probe'") == true)
    let fake = try #require(
      FlowTesting.error("sheet dismis", options: FakeApp.options))
    #expect(fake.hint?.contains("'sheet dismiss'") == true)
  }

  @Test func theEngineCatalogHasNoHealthCommand() throws {
    let engine = Set(CommandCatalog.engine.commands.flatMap { [$0.name] + $0.aliases })
    let health = Set(HealthCommands.all.flatMap { [$0.command.name] + $0.command.aliases })
    #expect(!health.isEmpty)
    #expect(engine.isDisjoint(with: health))
    #expect(
      Set(CommandCatalog.engine.categories.map(\.id))
        .isSubset(of: ["script", "views", "clock", "checks"]))
    // Parsed against the engine alone, a health command is unknown.
    let error = try #require(
      FlowTesting.error("login email=a password=b", options: Flow.ParseOptions()))
    #expect(error.kind == .unknownCommand)
    // A plug-in's catalog is the engine's commands and then its own.
    #expect(
      Probe.plugin.catalog.commands.map(\.name)
        == CommandCatalog.engine.commands.map(\.name) + Probe.commands.map(\.command.name))
  }

  @Test func usageLinesAreBuiltFromTheArguments() throws {
    let probe = try #require(Probe.commands.first?.command)
    #expect(
      probe.usage
        == "probe N NUMBER as fast|slow [label=TEXT] [name=NAME] [after=DURATION] [on=DATE] "
        + "[enabled=on|off] [at=CONTEXT-PATH] size=N")
    #expect(probe.keywords == ["label", "name", "after", "on", "enabled", "at", "size"])
    #expect(probe.category == Probe.category)
  }

  @Test func argumentValuesPrintAsAFlowWouldWriteThem() {
    let values: [(ArgumentValue, String)] = [
      (.integer(7), "7"), (.number(2.5), "2.5"), (.text("a b"), "a b"), (.word("fast"), "fast"),
      (.duration(.seconds(90)), "90s"), (.duration(.seconds(120)), "2m"), (.boolean(true), "on"),
      (.boolean(false), "off"),
      (.date(FlowTesting.date(2026, 11, 20)), "2026-11-20T00:00:00Z"),
    ]
    for (value, text) in values { #expect(value.description == text, "\(value)") }
  }
}

/// Plug-ins under the runner and the CLI.
/// Kept serialized, no longer for WeftCore's engine state (each launch now owns its monitor
/// and delivery queue) but for the suite's own: `Probe.received` is one static log that
/// `performGetsTheCheckedArguments` clears and reads while other runs of `Probe` append to it.
@Suite("Plug-in API: runs", .serialized)
@MainActor
struct PluginRunTests {

  @Test func performGetsTheCheckedArguments() async throws {
    Probe.received.withLock { $0.removeAll() }
    let app = FakeApp()
    let flow = try Flow.parse(
      source: PluginTests.full + "\nexpect fake.a == \"probed 7\"", file: "probe.flow",
      knownPaths: Set(app.observablePathNames), options: Probe.options)
    let runner = FlowRunner(app: app, plugin: Probe.plugin)
    let report = await runner.run(flow)
    runner.tearDown()
    #expect(report.steps.map(\.status) == [.passed, .passed])
    let received = Probe.received.withLock { $0 }
    guard case .app(let step) = flow.steps[0].kind else {
      Issue.record("not a plug-in step")
      return
    }
    #expect(received == [step.arguments])
  }

  @Test func aThrowingPerformFailsItsStepAndTheRunGoesOn() async throws {
    let path = try temporaryFlowFile(
      "explode\nrefuse\nmisread\nprobe 1 0 as fast size=2\nexpect fake.a == \"probed 2\"\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let json = Captured()
    #expect(
      await Simulator.main([path, "--json"], plugin: Probe.plugin, output: json.output) == 1)
    let steps = try JSONRenderer().decode(Data(json.standard.utf8)).steps
    #expect(steps.map(\.status) == [.errored, .errored, .errored, .passed, .passed])
    #expect(steps[0].message?.contains("the probe blew up") == true)
    #expect(steps[1].message?.contains("the probe refuses") == true)
    #expect(steps[2].message?.contains("no argument 'nothing'") == true)
    // Each keeps its kind: a thrown plain error and a refusal are command failures.
    #expect(steps[0].cause == "command")
    #expect(steps[1].cause == "other")
    let report = try JSONRenderer().decode(Data(json.standard.utf8))
    #expect(report.failures.map(\.cause) == ["command", "other", "other"])
    // The table says so too.
    let table = Captured()
    #expect(
      await Simulator.main([path, "--no-progress"], plugin: Probe.plugin, output: table.output)
        == 1)
    #expect(table.standard.contains("the probe blew up"))
  }

  @Test func aCommandsErrorKeepsItsKindAndTheErrorItThrew() async throws {
    let app = FakeApp()
    do {
      try await Probe.plugin.perform(AppStep("explode", CommandArguments([:])), on: app)
      Issue.record("explode did not throw")
    } catch {
      #expect(error.kind == .command)
      #expect(error.underlying is Probe.Boom)
      #expect(error.message == "the probe blew up")
    }
    do {
      try await Probe.plugin.perform(AppStep("nonsense", CommandArguments([:])), on: app)
      Issue.record("an unknown command did not throw")
    } catch {
      #expect(error.kind == .flow)
      #expect(error.underlying == nil)
    }
    // A kind of the plug-in's own, switched on with a default.
    let quota = SimulationError("over quota", kind: SimulationError.Kind("quota"))
    switch quota.kind {
    case .command, .launch: Issue.record("not a built-in kind")
    default: #expect(quota.kind.name == "quota")
    }
  }

  @Test func aFakeAppStepThatThrowsExitsOne() async throws {
    let path = try temporaryFlowFile("tab home\nalert dismiss\nexpect fake.a == home\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let json = Captured()
    #expect(
      await Simulator.main([path, "--json"], plugin: FakeApp.plugin, output: json.output) == 1)
    let steps = try JSONRenderer().decode(Data(json.standard.utf8)).steps
    #expect(steps.map(\.status) == [.passed, .errored, .passed])
    #expect(steps[1].message?.contains("no alert is presented") == true)
  }

  @Test func aFlowWithAnotherAppsCommandIsAnErrorBeforeTheRun() async throws {
    let path = try temporaryFlowFile("tab home\nlogin email=a password=b\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let captured = Captured()
    #expect(
      await Simulator.main(
        [path, "--no-progress"], plugin: FakeApp.plugin, output: captured.output)
        == 2)
    #expect(captured.error.contains(":2:1: error: unknown command 'login'"))
  }

  @Test func helpListsThePluginsCommandsUnderTheirCategories() async throws {
    let captured = Captured()
    #expect(await Simulator.main(["--help"], plugin: FakeApp.plugin, output: captured.output) == 0)
    let text = captured.standard
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = try #require(lines.firstIndex(of: "FLOW COMMANDS (fake):"))
    let fake = try #require(lines.firstIndex(of: "  Fake app:"))
    #expect(header < fake)
    let listed = lines[(fake + 1)...].prefix { $0.hasPrefix("    ") }
      .map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(
      listed == [
        "tab NAME", "navigate push NAME", "sheet present NAME", "sheet dismiss", "alert dismiss",
      ])
    // The engine's commands are listed under theirs.
    #expect(lines.contains("  Views:"))
    #expect(lines.contains("  Clock and waiting:"))
    // No health command leaks into another app's help.
    #expect(!text.contains("login"))
    #expect(!text.contains("Login and session"))
    // The health app's help lists its categories.
    let health = Captured()
    #expect(
      await Simulator.main(["help", "run"], plugin: HealthSimulation.plugin, output: health.output)
        == 0)
    for title in ["Login and session", "Network and realtime", "Dashboard"] {
      #expect(health.standard.contains("\n  \(title):\n"), "\(title)")
    }
    #expect(health.standard.contains("    login email=TEXT password=TEXT"))
  }
}
