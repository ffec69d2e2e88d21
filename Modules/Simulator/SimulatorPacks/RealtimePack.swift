import SimulatorKit

/// The `realtime connect|disconnect|drop` command, for any app with a realtime connection:
/// declared once here, carried out by the app's `perform`.
///
/// - Note: Isolation: constants; the command performs on the MainActor.
public enum RealtimePack {
  /// What a `realtime` statement asks for.
  public enum Action: String, Sendable, Equatable, CaseIterable {
    /// Open the connection.
    case connect
    /// Close it cleanly.
    case disconnect
    /// The server drops it (the app's reconnect policy takes over).
    case drop
  }

  /// The `realtime` command for `App`, carried out by `perform`.
  ///
  /// - Complexity: O(1).
  public static func commands<App: SimulatedApp>(
    for app: App.Type = App.self,
    _ perform: @escaping @MainActor @Sendable (App, Action) async throws -> Void
  ) -> [AppCommand<App>] {
    [
      AppCommand(
        "realtime", summary: "Connects, cleanly disconnects or drops the realtime connection.",
        category: NetworkPack.category,
        arguments: [.positional("realtime action", .word(Action.allCases.map(\.rawValue)))]
      ) { app, arguments in
        let action = Action(rawValue: try arguments.requiredText("realtime action")) ?? .connect
        try await perform(app, action)
      }
    ]
  }
}
