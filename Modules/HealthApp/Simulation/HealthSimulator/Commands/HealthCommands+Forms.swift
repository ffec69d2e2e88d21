import AppFeature
import FormsFeature
import HealthDomain
import SimulatorKit

extension HealthCommands {
  /// The `GROUP.FIELD` keywords of `grades.set`.
  static let gradeKeys: [String] = ["assignments", "exams"].flatMap { group in
    GradeWeightField.allCases.map { "\(group).\($0.rawValue)" }
  }

  /// The health-data form and the grade-weights form.
  static let forms: [Command] = [
    Command(
      "form.set",
      summary: "Edits the health-data form's fields; value= is the text typed, so the form's "
        + "own validation runs on it.",
      category: .healthForm,
      arguments: [
        .keyword("metric", .word(MetricType.allCases.map(\.rawValue)), placeholder: "METRIC"),
        .keyword("value", .text), .keyword("date", .date), .keyword("notes", .text),
      ],
      requiresOneOf: ["metric", "value", "date", "notes"]
    ) { app, arguments in
      await app.runtime.setHealthForm(
        metric: arguments.text("metric").flatMap(MetricType.init(rawValue:)),
        value: arguments.text("value"), date: arguments.date("date"), notes: arguments.text("notes")
      )
    },
    plain(
      "form.submit", summary: "Submits the health-data form (saves and queues the sync).",
      category: .healthForm
    ) { _ = try await $0.runtime.submitHealthForm() },
    plain("form.reset", summary: "Resets the health-data form.", category: .healthForm) {
      await $0.runtime.resetHealthForm()
    },
    Command(
      "grades.set", usage: "grades.set GROUP.FIELD=NUMBER ...",
      summary: "Edits the grade-weights form: GROUP is assignments or exams, FIELD is total, "
        + "each or count; applied in the order written.",
      category: .gradeWeights,
      arguments: gradeKeys.map { key in
        .keyword(key, key.hasSuffix(".count") ? .integer(0...1_000_000) : .number(nil))
      },
      requiresOneOf: gradeKeys
    ) { app, arguments in
      for entry in arguments.entries {
        let parts = entry.name.split(separator: ".").map(String.init)
        guard parts.count == 2, let field = GradeWeightField(rawValue: parts[1]) else { continue }
        try app.runtime.setGradeWeight(
          field, of: parts[0], to: arguments.requiredNumber(entry.name))
      }
    },
    Command(
      "grades.basis",
      summary: "Changes the class's grade basis (percent weights must sum to at most 100).",
      category: .gradeWeights,
      arguments: [.positional("grade basis", .word(GradeBasis.allCases.map(\.rawValue)))]
    ) { app, arguments in
      app.runtime.setGradeBasis(arguments.text("grade basis") == "points" ? .points : .percent)
    },
  ]
}
