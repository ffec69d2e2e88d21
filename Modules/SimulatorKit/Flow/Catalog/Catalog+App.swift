extension Catalog {
  /// A command `name NAME` that builds `make(NAME)`.
  private static func named(
    _ name: String, placeholder: String, summary: String,
    _ make: @escaping @Sendable (String) -> StepKind
  ) -> CommandSpec {
    CommandSpec(
      FlowCommand(
        name, usage: "\(name) \(placeholder)", summary: summary, category: .appState),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let value = try reader.requireValue(placeholder)
        return make(try reader.name(value, "a name"))
      })
  }

  /// Tabs, navigation, sheets, alerts and feature flags.
  static let app: [CommandSpec] = [
    named("tab", placeholder: "NAME", summary: "Selects a tab.") { .selectTab($0) },
    named(
      "navigate push", placeholder: "NAME",
      summary: "Pushes a destination onto the navigation path."
    ) { .navigatePush($0) },
    plain(
      "navigate pop", summary: "Pops the navigation path.", category: .appState, .navigatePop),
    named("sheet present", placeholder: "NAME", summary: "Presents a sheet.") {
      .presentSheet($0)
    },
    plain(
      "sheet dismiss", summary: "Dismisses the presented sheet.", category: .appState,
      .dismissSheet),
    plain(
      "alert dismiss", summary: "Dismisses the presented alert.", category: .appState,
      .dismissAlert),
    CommandSpec(
      FlowCommand(
        "feature", usage: "feature NAME on|off", summary: "Turns a feature flag on or off.",
        category: .appState),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let nameSyntax = try reader.requireValue("NAME")
        let name = try reader.name(nameSyntax, "a feature name")
        let switchSyntax = try reader.requireValue("on|off")
        return .setFeature(name, enabled: try reader.bool(switchSyntax))
      }),
  ]
}
