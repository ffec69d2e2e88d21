import SimulatorFlow
import SimulatorKit
import SimulatorPacks

/// The health app's flow commands: what `weft-sim` adds to the engine's language for the
/// bundled app. Each command is declared once, here, with its arguments and what it does on
/// `SimulatedHealthApp`.
///
/// - Note: Isolation: constants; commands perform on the MainActor.
public enum HealthCommands {
  /// A health command.
  public typealias Command = AppCommand<HealthSimulation>

  /// Every command, in documentation order.
  public static let all: [Command] = auth + dashboard + forms + context + app + network

  /// A command with no arguments.
  static func plain(
    _ name: String, aliases: [String] = [], summary: String, category: FlowCommand.Category,
    _ perform: @escaping @MainActor @Sendable (HealthSimulation) async throws -> Void
  ) -> Command {
    Command(name, aliases: aliases, summary: summary, category: category) { app, _ in
      try await perform(app)
    }
  }
}

extension FlowCommand.Category {
  /// Login, logout and the session.
  public static let auth = Self("auth", title: "Login and session")
  /// The dashboard.
  public static let dashboard = Self("dashboard", title: "Dashboard")
  /// The health-data entry form.
  public static let healthForm = Self("healthForm", title: "Health-data form")
  /// The grade-weights form.
  public static let gradeWeights = Self("gradeWeights", title: "Grade-weights form")
  /// Tabs, navigation, sheets, alerts and feature flags.
  public static let appState = Self("appState", title: "App state")
  /// The virtual network and the realtime connection (the packs' category).
  public static let network = NetworkPack.category
  /// Requests, flags, executables and notifications of the context tree (the pack's).
  public static let contextTree = ContextPack.category
}
