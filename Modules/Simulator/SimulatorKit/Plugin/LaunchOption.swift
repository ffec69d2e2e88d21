/// An option of the app itself that a plug-in declares: given on the command line as
/// `--NAME VALUE` (or `--NAME=VALUE`) to `run` and `explore`, listed in `--help` under
/// APP OPTIONS, and handed to the plug-in's launch in `SimulationLaunch.options` — instead of
/// an environment variable the app reads on its own.
///
/// ```swift
/// SimulatorPlugin(
///   name: "chat", commands: ChatCommands.all, scheduling: .deterministic,
///   launchOptions: [LaunchOption("room", summary: "The room the app opens.", default: "general")]
/// ) { launch in try await ChatSimulation(room: launch.options["room"]!) }
/// ```
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1).
public struct LaunchOption: Sendable, Equatable {
  /// The option's name, without the leading `--` (letters, digits and `-`).
  public let name: String
  /// One line for `--help`.
  public let summary: String
  /// The value's placeholder in `--help` (`VALUE` by default).
  public let placeholder: String
  /// The value when the command line gives none, or `nil` for no value at all.
  public let defaultValue: String?

  /// Declares an option.
  ///
  /// - Complexity: O(1).
  public init(
    _ name: String, summary: String, placeholder: String = "VALUE", default: String? = nil
  ) {
    self.name = name
    self.summary = summary
    self.placeholder = placeholder
    self.defaultValue = `default`
  }

  /// `values` with each declared option's default filled in where none was given.
  ///
  /// - Complexity: O(o), o = options.
  static func resolve(_ values: [String: String], among options: [LaunchOption]) -> [String: String]
  {
    var resolved = values
    for option in options where resolved[option.name] == nil {
      if let value = option.defaultValue { resolved[option.name] = value }
    }
    return resolved
  }
}
