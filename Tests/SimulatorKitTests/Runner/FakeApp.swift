import WeftCore

@testable import SimulatorKit

/// A tiny app for runner tests: two observable strings and a counter, changed by steps the
/// flow language already has (`tab NAME` sets `a`, `navigate push NAME` sets `b`,
/// `sheet present NAME` commits without changing anything, `sheet dismiss` bumps `count`).
@MainActor
final class FakeApp: SimulatedApp {
  struct State: Sendable, Equatable {
    var a = "start"
    var b = "start"
    var count = 0
  }

  let monitor = PerformanceMonitor(enabled: true)
  let cell: StateCell<State>
  private let paths: [String: SimObservable]

  init() {
    let cell = StateCell(State(), name: "fake", monitor: monitor)
    self.cell = cell
    func string(_ name: String, _ keyPath: any KeyPath<State, String> & Sendable) -> SimObservable {
      let selector = Selector<State, String>(keyPath)
      return SimObservable(
        name: name, selector: selector.id.description,
        read: { .string(cell.state[keyPath: keyPath]) },
        subscribe: { body in
          cell.observeOnMainActor(selector) { body(.string($0.value), $0.version) }
        })
    }
    let every = Selector<State, Int>(\.count).deliveringEveryCommit()
    paths = [
      "fake.a": string("fake.a", \.a),
      "fake.b": string("fake.b", \.b),
      "fake.count": SimObservable(
        name: "fake.count", selector: "every commit of count",
        read: { .int(cell.state.count) },
        subscribe: { body in cell.observeOnMainActor(every) { body(.int($0.value), $0.version) } }),
    ]
  }

  var observablePathNames: [String] { paths.keys.sorted() }

  func observable(named path: String) -> SimObservable? { paths[path] }

  func perform(_ step: StepKind) async throws(SimulationError) {
    switch step {
    case .selectTab(let name): cell.update { $0.a = name }
    case .navigatePush(let name): cell.update { $0.b = name }
    case .presentSheet: cell.update { _ in }
    case .dismissSheet: cell.update { $0.count += 1 }
    case .dismissAlert: throw SimulationError("no alert is presented")
    default: throw SimulationError("the fake app does not do \(step)")
    }
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
      deliveryJobs: metrics.deliveryJobs, sqlStatements: 0)
  }

  func latencies() -> Histogram { monitor.metrics(for: "fake")?.latency ?? Histogram() }

  func resetLatencies() {}

  func traceLine() -> String {
    paths.keys.sorted().map { "\($0)=\(paths[$0]!.read())" }.joined(separator: " ")
  }
}
