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
  static let todos = FlowCommand.Category("todos", title: "Todos")
  /// A 1-based row of the shown (filtered) to-dos.
  static let row = CommandArgument.positional("index", .integer(1...1_000), placeholder: "N")

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
    Command("todos.add", summary: "Taps Add Todo (the new one is first).", category: todos) {
      sim, _ in
      sim.app.todos.send(.addTodoButtonTapped)
    },
    Command(
      "todos.describe", summary: "Types the description of shown to-do N (1-based).",
      category: todos, arguments: [row, .positional("text", .text, placeholder: "TEXT")]
    ) { sim, arguments in
      let id = try sim.todo(at: arguments.requiredInteger("index"))
      sim.app.todos.send(.todo(id: id, .descriptionChanged(try arguments.requiredText("text"))))
    },
    Command(
      "todos.complete", summary: "Ticks shown to-do N (1-based), or unticks it with off.",
      category: todos, arguments: [row, .positional("complete", .boolean, optional: true)]
    ) { sim, arguments in
      let id = try sim.todo(at: arguments.requiredInteger("index"))
      sim.app.todos.send(.todo(id: id, .isCompleteChanged(arguments.boolean("complete") ?? true)))
    },
    Command(
      "todos.delete", summary: "Swipes shown to-do N (1-based) away.", category: todos,
      arguments: [row]
    ) { sim, arguments in
      let index = try arguments.requiredInteger("index")
      _ = try sim.todo(at: index)
      sim.app.todos.send(.delete([index - 1]))
    },
    Command(
      "todos.move",
      summary: "Drags shown to-do N to before shown row TO (1-based; count + 1: the end).",
      category: todos, arguments: [row, .positional("to", .integer(1...1_001), placeholder: "TO")]
    ) { sim, arguments in
      let (index, to) = (
        try arguments.requiredInteger("index"), try arguments.requiredInteger("to")
      )
      _ = try sim.todo(at: index)
      sim.app.todos.send(.move([index - 1], to - 1))
    },
    Command(
      "todos.filter", summary: "Picks the filter.", category: todos,
      arguments: [
        .positional(
          "filter", .word(["all", "active", "completed"]), placeholder: "all|active|completed")
      ]
    ) { sim, arguments in
      let filter = try arguments.requiredText("filter")
      sim.app.todos.send(
        .filterChanged(Filter.allCases.first { $0.rawValue.lowercased() == filter } ?? .all))
    },
    Command("todos.clear", summary: "Taps Clear Completed.", category: todos) { sim, _ in
      sim.app.todos.send(.clearCompletedButtonTapped)
    },
  ]
}
