import Foundation
import SimulatorKit
import SimulatorPacks
import Testing
import WeftContexts
import WeftCore
import WeftNetworking
import WeftSimulation

@testable import SimulatorFlow
@testable import SimulatorReports

/// A small app on WeftNetworking's simulated transport and a WeftContexts tree, whose
/// `network …` and `context.…` commands come from the packs with their default glue.
@MainActor
final class PackedApp: SimulatedApp {
  let transport = SimulatedTransport(seed: 3, clock: ContinuousClock())
  let availability = NetworkAvailability()
  let root = Context(named: "Packed")
  var answers: [Int] = []

  init() {
    transport.route(.get, "/ping") { _ in HTTPResponse(status: 200) }
    root.addRequestable(Requestable.Name("grade"), requesting: { 90 })
  }

  nonisolated static let plugin = SimulatorPlugin(
    name: "packed",
    commands: NetworkPack.commands(for: PackedApp.self) { app, action in
      try NetworkPack.apply(action, to: app.transport, availability: app.availability)
    }
      + ContextPack.commands(for: PackedApp.self, defaultContext: "the root") { app, path in
        guard let path, path != "global/Packed" else { return app.root }
        throw SimulationError("no context at \(path)")
      }
      + [
        AppCommand<PackedApp>(
          "ping", summary: "Sends one request.", category: .init("app", title: "App")
        ) { app, _ in
          let response = try await app.transport.send(
            HTTPRequest(method: .get, url: URL(string: "https://packed.sim/ping")!))
          app.answers.append(response.status)
        }
      ]
  ) { _ in PackedApp() }

  var observablePathNames: [String] { [] }
  func observable(named path: String) -> ObservablePath? { nil }
  func advanceClock(by duration: Duration) async throws(SimulationError) {}
  func settle() async {}
  func wait(until predicate: @MainActor () -> Bool, timeout: Duration?) async -> Bool {
    predicate()
  }
  func counters() -> EngineCounters { EngineCounters() }
  func latencies() -> Histogram { Histogram() }
  func resetLatencies() {}
  func traceLine() -> String { "answers=\(answers)" }
}

@Suite("Command packs")
@MainActor
struct PacksTests {
  func run(_ source: String) async throws -> (PackedApp, RunReport) {
    let plugin = PackedApp.plugin
    let flow = try Flow.parse(
      source: source, file: "packs.flow", options: Flow.ParseOptions(commands: plugin.catalog))
    let app = try #require(try await plugin.launch(SimulationLaunch(seed: 1)) as? PackedApp)
    let report = await FlowRunner(app: app, plugin: plugin).run(flow)
    return (app, report)
  }

  @Test func aFaultFromThePackReachesTheTransport() async throws {
    let (app, report) = try await run(
      """
      network fault 5xx count=2 status=502
      ping
      ping
      ping
      network fault 429 retry-after=2s
      network faults clear
      ping
      """)
    #expect(report.exitCode == 0)
    #expect(app.answers == [502, 502, 200, 200])
  }

  @Test func offlineSwitchesTheAppsAvailability() async throws {
    let (app, report) = try await run("network offline")
    #expect(report.exitCode == 0)
    #expect(!app.availability.isAvailable)
  }

  @Test func theContextPackActsOnTheResolvedContext() async throws {
    let (app, report) = try await run(
      "context.request grade\ncontext.flag set editing at=global/Packed")
    #expect(report.exitCode == 0)
    #expect(app.root.flagIsSet(Flag.Name("editing")))
  }

  @Test(arguments: [
    ("context.flag set editing\ncontext.flag set editing", "editing"),
    ("context.request missing", "missing"),
    ("context.post saved at=global/Elsewhere", "no context at global/Elsewhere"),
  ])
  func aContextErrorFailsTheStepWithItsMessage(_ source: String, _ named: String) async throws {
    let (_, report) = try await run(source)
    #expect(report.exitCode == 1)
    let last = try #require(report.steps.last)
    #expect(last.status == .errored)
    #expect(last.message?.contains(named) == true, "\(last.message ?? "")")
  }

  @Test func packCommandsAreCheckedBeforeTheRun() {
    let catalog = PackedApp.plugin.catalog
    #expect(throws: FlowError.self) {
      try Flow.parse(source: "network fault 429 status=500", options: .init(commands: catalog))
    }
    do throws(FlowError) {
      _ = try Flow.parse(source: "netwrk offline", options: .init(commands: catalog))
      Issue.record("a typo parsed")
    } catch {
      #expect(error.hint == "did you mean 'network offline'?")
    }
    #expect(
      catalog.categories.map { $0.title } == [
        "Script", "Views", "Clock and waiting", "Checks", "Network and realtime", "Context tree",
        "App",
      ])
  }
}
