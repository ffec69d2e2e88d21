// A simulator for an app that is not the health app: SimulatorKit (the engine) must compile
// without any feature module. CI checks that building this target compiles only SimulatorKit,
// its parts (SimulatorFlow, SimulatorReports, SimulatorGate) and the Weft modules it needs.
import Foundation
import SimulatorFlow
import SimulatorKit
import WeftCore

/// The smallest plug-in: an app with one counter and one command.
@MainActor
final class CounterApp: SimulatedApp {
  var count = 0
  var observablePathNames: [String] { [] }
  func observable(named path: String) -> SimObservable? { nil }
  func advanceClock(by duration: Duration) async throws(SimulationError) {}
  func settle() async {}
  func wait(until predicate: @MainActor () -> Bool, timeout: Duration?) async -> Bool {
    predicate()
  }
  func counters() -> EngineCounters { EngineCounters() }
  func latencies() -> Histogram { Histogram() }
  func resetLatencies() {}
  func traceLine() -> String { "count=\(count)" }
}

let plugin = SimulatorPlugin(
  name: "counter",
  commands: [
    AppCommand<CounterApp>(
      "count", summary: "Adds to the counter.",
      category: FlowCommand.Category("counter", title: "Counter"),
      arguments: [.positional("by", .integer(1...100))]
    ) { app, arguments in app.count += try arguments.requiredInteger("by") }
  ]
) { _ in CounterApp() }
exit(await Simulator.main(Array(CommandLine.arguments.dropFirst()), plugin: plugin))
