import WeftCore
import WeftSimulation

@testable import SimulatorFlow
@testable import SimulatorKit

/// A tiny app for runner tests: two observable strings and a counter, changed by the
/// commands of its own plug-in (`FakeApp.plugin`, a second app next to the health one):
/// `tab NAME` sets `a`, `navigate push NAME` sets `b`, `sheet present NAME` commits without
/// changing anything, `sheet dismiss` bumps `count`, `alert dismiss` always fails. It has no
/// virtual clock: `clock advance` fails the step.
@MainActor
final class FakeApp: SimulatedApp {
  struct State: Sendable, Equatable {
    var a = "start"
    var b = "start"
    var count = 0
  }

  let monitor = PerformanceMonitor(enabled: true)
  let cell: StateCell<State>
  private let paths: [String: ObservablePath]

  init() {
    let cell = StateCell(State(), name: "fake", monitor: monitor)
    self.cell = cell
    func string(_ name: String, _ keyPath: any KeyPath<State, String> & Sendable) -> ObservablePath
    {
      let selector = StateSelector<State, String>(keyPath)
      return ObservablePath(
        name: name, selector: selector.id.description,
        read: { .string(cell.state[keyPath: keyPath]) },
        subscribe: { body in
          cell.observeOnMainActor(selector) { body(.string($0.value), $0.version) }
        })
    }
    let every = StateSelector<State, Int>(\.count).deliveringEveryCommit()
    paths = [
      "fake.a": string("fake.a", \.a),
      "fake.b": string("fake.b", \.b),
      "fake.count": ObservablePath(
        name: "fake.count", selector: "every commit of count",
        read: { .int(cell.state.count) },
        subscribe: { body in cell.observeOnMainActor(every) { body(.int($0.value), $0.version) } }),
    ]
  }

  var observablePathNames: [String] { paths.keys.sorted() }

  func observable(named path: String) -> ObservablePath? { paths[path] }

  func advanceClock(by duration: Duration) async throws(SimulationError) {
    throw SimulationError("the fake app does not do clock advance \(duration)")
  }

  func settle() async { cell.deliverPendingMainActorChanges() }

  func wait(until predicate: @MainActor () -> Bool, timeout: Duration?) async -> Bool {
    cell.deliverPendingMainActorChanges()
    return predicate()
  }

  func counters() -> EngineCounters {
    let metrics = monitor.metrics(for: "fake") ?? ComponentMetrics(name: "fake")
    return EngineCounters(
      commits: metrics.commits, deliveries: metrics.deliveries,
      mainActorJobs: metrics.deliveryJobs, sqlStatements: 0)
  }

  func latencies() -> Histogram { monitor.metrics(for: "fake")?.latency ?? Histogram() }

  func resetLatencies() {}

  func traceLine() -> String {
    paths.keys.sorted().map { "\($0)=\(paths[$0]!.read())" }.joined(separator: " ")
  }
}

extension FakeApp {
  typealias Command = AppCommand<FakeApp>

  /// Where `--help` lists the fake's commands.
  nonisolated static let category = FlowCommand.Category("fake", title: "Fake app")

  /// The fake's commands: the view-shaped subset of an app's language.
  nonisolated static let commands: [Command] = [
    Command(
      "tab", summary: "Sets fake.a.", category: category,
      arguments: [.positional("name", .name, placeholder: "NAME")]
    ) { app, arguments in
      let name = try arguments.requiredText("name")
      app.cell.update { $0.a = name }
    },
    Command(
      "navigate push", summary: "Sets fake.b.", category: category,
      arguments: [.positional("name", .name, placeholder: "NAME")]
    ) { app, arguments in
      let name = try arguments.requiredText("name")
      app.cell.update { $0.b = name }
    },
    Command(
      "sheet present", summary: "Commits without changing anything.", category: category,
      arguments: [.positional("name", .name, placeholder: "NAME")]
    ) { app, _ in
      app.cell.update { _ in }
    },
    Command("sheet dismiss", summary: "Bumps fake.count.", category: category) { app, _ in
      app.cell.update { $0.count += 1 }
    },
    Command("alert dismiss", summary: "Fails: no alert is ever shown.", category: category) {
      _, _ in
      throw SimulationError("no alert is presented")
    },
  ]

  /// The fake's plug-in: launches a fresh `FakeApp`.
  nonisolated static let plugin = SimulatorPlugin(name: "fake", commands: commands) { _ in FakeApp()
  }

  /// Parse options with the fake's commands.
  nonisolated static var options: Flow.ParseOptions { Flow.ParseOptions(commands: plugin.catalog) }
}
