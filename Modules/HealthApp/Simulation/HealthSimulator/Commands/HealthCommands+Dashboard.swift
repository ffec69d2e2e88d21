import AppFeature
import HealthDomain
import SimulatorFlow
import SimulatorKit

extension HealthCommands {
  static let rangeWords = ["day", "week", "month", "custom"]

  /// The dashboard.
  static let dashboard: [Command] = [
    Command(
      "open dashboard", aliases: ["dashboard.open"],
      summary: "Shows the dashboard (local data, then sync, then local data again), "
        + "optionally with a range; from= and to= imply range=custom.",
      category: .dashboard,
      arguments: [
        .keyword("range", .word(rangeWords)), .keyword("from", .date), .keyword("to", .date),
      ],
      check: { (arguments) throws(ArgumentProblem) in
        let word = arguments.text("range")
        if let word, word != "custom" {
          if arguments.has("from") { throw .notApplicable("from", "with range=custom") }
          if arguments.has("to") { throw .notApplicable("to", "with range=custom") }
        }
        let custom = word == "custom" || arguments.has("from") || arguments.has("to")
        if custom { try checkBounds(arguments, command: "open dashboard") }
      },
      perform: { app, arguments in
        try await app.runtime.openDashboard(range: try range(arguments))
      }),
    Command(
      "dashboard.range", usage: "dashboard.range day|week|month|custom [from=DATE to=DATE]",
      summary: "Changes the dashboard's date range (custom needs from= and to=).",
      category: .dashboard,
      arguments: [
        .positional("range", .word(rangeWords)), .keyword("from", .date), .keyword("to", .date),
      ],
      check: { (arguments) throws(ArgumentProblem) in
        if arguments.text("range") != "custom" {
          if arguments.has("from") { throw .notApplicable("from", "with 'dashboard.range custom'") }
          if arguments.has("to") { throw .notApplicable("to", "with 'dashboard.range custom'") }
        } else {
          try checkBounds(arguments, command: "dashboard.range")
        }
      },
      perform: { app, arguments in
        guard let range = try range(arguments) else { return }
        try await app.runtime.setDashboardRange(range)
      }),
    plain("dashboard.refresh", summary: "Re-runs the dashboard's load.", category: .dashboard) {
      try await $0.runtime.refreshDashboard()
    },
  ]

  /// A custom range needs both bounds, `to` not before `from`.
  static func checkBounds(_ arguments: CommandArguments, command: String) throws(ArgumentProblem) {
    for bound in ["from", "to"] where !arguments.has(bound) {
      throw ArgumentProblem(
        "missing argument '\(bound)=' for '\(command)'", kind: .missingArgument)
    }
    if let from = arguments.date("from"), let to = arguments.date("to"), from > to {
      throw ArgumentProblem(
        "to= must not be before from=", at: "to", hint: "swap the dates, or pick a later to=",
        kind: .badDate)
    }
  }

  /// The range the arguments name (`nil`: none given, keep the dashboard's).
  static func range(_ arguments: CommandArguments) throws(SimulationError) -> DateRange? {
    let custom = arguments.has("from") || arguments.has("to")
    switch arguments.text("range") ?? (custom ? "custom" : nil) {
    case "day": return .day
    case "week": return .week
    case "month": return .month
    case "custom":
      return .custom(from: try arguments.requiredDate("from"), to: try arguments.requiredDate("to"))
    default: return nil
    }
  }
}
