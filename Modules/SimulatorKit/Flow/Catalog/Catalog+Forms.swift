extension Catalog {
  /// The `GROUP.FIELD` keys of `grades.set`.
  static let gradeKeys: [String] = StepKind.GradeGroup.allCases.flatMap { group in
    StepKind.GradeField.allCases.map { "\(group.rawValue).\($0.rawValue)" }
  }

  /// The health-data form and the grade-weights form.
  static let forms: [CommandSpec] = [
    CommandSpec(
      FlowCommand(
        "form.set", usage: "form.set [metric=METRIC] [value=TEXT] [date=DATE] [notes=TEXT]",
        summary: "Edits the health-data form's fields; value= is the text typed, so the form's "
          + "own validation runs on it.",
        keywords: ["metric", "value", "date", "notes"], category: .healthForm),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        try reader.requireAny(of: ["metric", "value", "date", "notes"])
        var fields = StepKind.HealthFormFields()
        if let metric = reader.keyword("metric") {
          fields.metric = try reader.word(metric, StepKind.Metric.self)
        }
        if let value = reader.keyword("value") { fields.value = try reader.text(value) }
        if let date = reader.keyword("date") { fields.date = try reader.date(date, "date=") }
        if let notes = reader.keyword("notes") { fields.notes = try reader.text(notes) }
        return .setHealthForm(fields)
      }),
    plain(
      "form.submit", summary: "Submits the health-data form (saves and queues the sync).",
      category: .healthForm, .submitHealthForm),
    plain(
      "form.reset", summary: "Resets the health-data form.", category: .healthForm,
      .resetHealthForm),
    CommandSpec(
      FlowCommand(
        "grades.set", usage: "grades.set GROUP.FIELD=NUMBER ...",
        summary: "Edits the grade-weights form: GROUP is assignments or exams, FIELD is total, "
          + "each or count; applied in the order written.",
        keywords: gradeKeys, category: .gradeWeights),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        try reader.requireAny(of: gradeKeys)
        var weights: [StepKind.GradeWeight] = []
        for keyword in reader.statement.keywords {
          let parts = keyword.name.split(separator: ".").map(String.init)
          guard parts.count == 2, let group = StepKind.GradeGroup(rawValue: parts[0]),
            let field = StepKind.GradeField(rawValue: parts[1])
          else { continue }
          let value: Double =
            field == .count
            ? Double(try reader.integer(keyword.value, "\(keyword.name)=", in: 0...1_000_000))
            : try reader.decimal(keyword.value, "\(keyword.name)=")
          weights.append(StepKind.GradeWeight(group: group, field: field, value: value))
        }
        return .setGradeWeights(weights)
      }),
    CommandSpec(
      FlowCommand(
        "grades.basis", usage: "grades.basis percent|points",
        summary: "Changes the class's grade basis (percent weights must sum to at most 100).",
        category: .gradeWeights),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let value = try reader.requireValue("percent|points")
        return .setGradeBasis(try reader.word(value, StepKind.GradeBasis.self))
      }),
  ]
}
