import SimulatorKit

extension HealthCommands {
  /// A command `name NAME`.
  private static func named(
    _ name: String, summary: String,
    _ perform: @escaping @MainActor @Sendable (HealthSimulation, String) async throws -> Void
  ) -> Command {
    Command(
      name, summary: summary, category: .appState,
      arguments: [.positional("name", .name, placeholder: "NAME")]
    ) { app, arguments in
      try await perform(app, arguments.requiredText("name"))
    }
  }

  /// Tabs, navigation, sheets, alerts and feature flags.
  static let app: [Command] = [
    named("tab", summary: "Selects a tab.") { try await $0.runtime.selectTab($1) },
    named("navigate push", summary: "Pushes a destination onto the navigation path.") {
      await $0.runtime.pushNavigation($1)
    },
    plain("navigate pop", summary: "Pops the navigation path.", category: .appState) {
      try await $0.runtime.popNavigation()
    },
    named("sheet present", summary: "Presents a sheet.") { try await $0.runtime.presentSheet($1) },
    plain("sheet dismiss", summary: "Dismisses the presented sheet.", category: .appState) {
      try await $0.runtime.dismissSheet()
    },
    plain("alert dismiss", summary: "Dismisses the presented alert.", category: .appState) {
      try await $0.runtime.dismissAlert()
    },
    Command(
      "feature", summary: "Turns a feature flag on or off.", category: .appState,
      arguments: [
        .positional("name", .name, placeholder: "NAME"), .positional("enabled", .boolean),
      ]
    ) { app, arguments in
      try await app.runtime.setFeature(
        arguments.requiredText("name"), enabled: arguments.requiredBoolean("enabled"))
    },
  ]
}
