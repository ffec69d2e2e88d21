import Foundation

extension Catalog {
  /// The dashboard.
  static let dashboard: [CommandSpec] = [
    CommandSpec(
      FlowCommand(
        "open dashboard", aliases: ["dashboard.open"],
        usage: "open dashboard [range=day|week|month|custom] [from=DATE] [to=DATE]",
        summary: "Shows the dashboard (local data, then sync, then local data again), "
          + "optionally with a range; from= and to= imply range=custom.",
        keywords: ["range", "from", "to"], category: .dashboard),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let word = try reader.keyword("range").map { (value) throws(FlowError) in
          try reader.word(value, RangeWord.self)
        }
        if let word, word != .custom {
          try reader.reject("from", "with range=custom")
          try reader.reject("to", "with range=custom")
        }
        let hasBounds = reader.keyword("from") != nil || reader.keyword("to") != nil
        guard let effective = word ?? (hasBounds ? .custom : nil) else {
          return .openDashboard(range: nil)
        }
        return .openDashboard(range: try range(effective, reader))
      }),
    CommandSpec(
      FlowCommand(
        "dashboard.range", usage: "dashboard.range day|week|month|custom [from=DATE to=DATE]",
        summary: "Changes the dashboard's date range (custom needs from= and to=).",
        keywords: ["from", "to"], category: .dashboard),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let wordSyntax = try reader.requireValue("day|week|month|custom")
        let word = try reader.word(wordSyntax, RangeWord.self)
        if word != .custom {
          try reader.reject("from", "with 'dashboard.range custom'")
          try reader.reject("to", "with 'dashboard.range custom'")
        }
        return .setDashboardRange(try range(word, reader))
      }),
    plain(
      "dashboard.refresh", summary: "Re-runs the dashboard's load.", category: .dashboard,
      .refreshDashboard),
  ]

  /// The range for `word`; `custom` reads and checks `from=` and `to=`.
  private static func range(
    _ word: RangeWord, _ reader: ArgumentReader
  ) throws(FlowError)
    -> StepKind.DashboardRange
  {
    switch word {
    case .day: return .day
    case .week: return .week
    case .month: return .month
    case .custom:
      let fromSyntax = try reader.requireKeyword("from")
      let toSyntax = try reader.requireKeyword("to")
      let from = try reader.date(fromSyntax, "from=")
      let to = try reader.date(toSyntax, "to=")
      guard from <= to else {
        throw reader.source.error(
          .badDate, at: toSyntax.span, "to= must not be before from=",
          hint: "swap the dates, or pick a later to=")
      }
      return .custom(from: from, to: to)
    }
  }
}
