import CaseStudies
import SimulatorFlow
import SimulatorKit

/// The case studies' flow commands: one per user action of each screen.
///
/// - Note: Isolation: constants; commands perform on the MainActor.
public enum CaseStudiesCommands {
  /// A case-study command.
  public typealias Command = AppCommand<CaseStudiesSimulation>
  static let timers = FlowCommand.Category("timers", title: "Effects-Timers")
  static let facts = FlowCommand.Category("fact", title: "Effects-Cancellation")
  static let search = FlowCommand.Category("search", title: "Search")

  /// Every command, in documentation order.
  public static let all: [Command] = [
    Command("timers.toggle", summary: "Taps Start/Stop.", category: timers) { sim, _ in
      sim.app.timers.send(.toggleTimerButtonTapped)
    },
    Command("timers.disappear", summary: "Leaves the timer screen.", category: timers) {
      sim, _ in
      sim.app.timers.send(.onDisappear)
    },
    Command(
      "fact.step", summary: "Sets the stepper to N (cancels a fact request in flight).",
      category: facts,
      arguments: [.positional("number", .integer(-1_000...1_000), placeholder: "N")]
    ) { sim, arguments in
      sim.app.cancellation.send(.stepperChanged(try arguments.requiredInteger("number")))
    },
    Command("fact.fetch", summary: "Taps Number fact.", category: facts) { sim, _ in
      sim.app.cancellation.send(.factButtonTapped)
    },
    Command("fact.cancel", summary: "Taps Cancel.", category: facts) { sim, _ in
      sim.app.cancellation.send(.cancelButtonTapped)
    },
    Command(
      "search.type", summary: "Types the query; it is searched after a 300ms pause.",
      category: search, arguments: [.positional("query", .text, placeholder: "TEXT")]
    ) { sim, arguments in
      sim.app.search.send(.searchQueryChanged(try arguments.requiredText("query")))
    },
    Command(
      "search.tap", summary: "Taps result N (1-based) to load its forecast.", category: search,
      arguments: [.positional("index", .integer(1...1_000), placeholder: "N")]
    ) { sim, arguments in
      let index = try arguments.requiredInteger("index")
      let results = sim.app.search.state.results
      guard results.indices.contains(index - 1) else {
        throw SimulationError("there is no result \(index): the search shows \(results.count)")
      }
      sim.app.search.send(.searchResultTapped(results[index - 1]))
    },
  ]
}
