import CaseStudies
import Foundation
import SimulatorFlow
import SimulatorKit
import WeftCore
import WeftRuntime
import WeftSimulation

/// The four case studies under the simulator, on WeftRuntime's deterministic runtime: every
/// effect, request and sleep is a job of the runtime, and the APIs answer after 200 ms of
/// virtual time. The plug-in is commands (`CaseStudiesCommands`), paths and this launch.
///
/// - Note: Isolation: MainActor.
@MainActor
public final class CaseStudiesSimulation: WeftSimulatedApp {
  /// `casestudies-sim`'s plug-in.
  public static let plugin = SimulatorPlugin(
    name: "casestudies", executable: "casestudies-sim", commands: CaseStudiesCommands.all,
    scheduling: .deterministic
  ) {
    launch in try await CaseStudiesSimulation(launch)
  }

  /// How long the simulated APIs take to answer.
  public static let latency: Duration = .milliseconds(200)

  let app: CaseStudiesApp
  /// Settling, paths and counters.
  public let driver: WeftAppDriver

  /// Launches the screens for one run.
  ///
  /// - Throws: `SimulationError` off the deterministic runtime.
  /// - Complexity: O(1).
  public init(_ launch: SimulationLaunch) async throws {
    guard let runtime = DeterministicRuntime.current else {
      throw SimulationError(
        "casestudies-sim runs on the deterministic runtime: start it with Simulator.start "
          + "(docs/simulate-your-app.md)")
    }
    let app = CaseStudiesApp(latency: Self.latency)
    self.app = app
    driver = WeftAppDriver(runtime: runtime, paths: { Self.paths(of: app) })
  }

  /// Tears the screens down.
  public func shutDown() async { app.shutDown() }

  /// The id of shown to-do `index` (1-based, in the filtered list).
  ///
  /// - Throws: `SimulationError` when the list shows no such row.
  func todo(at index: Int) throws(SimulationError) -> UUID {
    let shown = app.todos.state.filteredTodos
    guard shown.indices.contains(index - 1) else {
      throw SimulationError("there is no to-do \(index): the list shows \(shown.count)")
    }
    return shown[index - 1].id
  }

  /// The observable paths of the four screens.
  ///
  /// - Complexity: O(p), p = paths.
  static func paths(of app: CaseStudiesApp) -> [String: ObservablePath] {
    let timers = app.timers.cell
    let facts = app.cancellation.cell
    let search = app.search.cell
    let todos = app.todos.cell
    let list: [ObservablePath] = [
      ObservablePath("timers.active", cell: timers) { .bool($0.isTimerActive) },
      ObservablePath("timers.seconds", cell: timers) { .int($0.secondsElapsed) },
      ObservablePath("fact.count", cell: facts) { .int($0.count) },
      ObservablePath("fact.current", cell: facts) { .optional($0.currentFact) },
      ObservablePath("fact.loading", cell: facts) { .bool($0.isFactRequestInFlight) },
      ObservablePath("search.query", cell: search) { .string($0.searchQuery) },
      ObservablePath("search.results", cell: search) { .int($0.results.count) },
      ObservablePath("search.names", cell: search) {
        .string($0.results.map(\.name).joined(separator: ", "))
      },
      ObservablePath("search.loading", cell: search) {
        .optional($0.resultForecastRequestInFlight?.name)
      },
      ObservablePath("search.weather", cell: search) { state in
        .optional(
          state.weather.map { weather in
            "\(weather.id): "
              + weather.days.map { "\($0.temperatureMin)–\($0.temperatureMax)" }
              .joined(separator: " ")
          })
      },
      ObservablePath("todos.count", cell: todos) { .int($0.todos.count) },
      ObservablePath("todos.visible", cell: todos) { .int($0.filteredTodos.count) },
      ObservablePath("todos.completed", cell: todos) { .int($0.todos.filter(\.isComplete).count) },
      ObservablePath("todos.order", cell: todos) {
        .string($0.todos.map(\.description).joined(separator: ", "))
      },
    ]
    return Dictionary(uniqueKeysWithValues: list.map { ($0.name, $0) })
  }
}
