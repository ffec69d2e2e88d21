/// A step of a plug-in command: the command's name and its checked arguments.
///
/// - Note: Isolation: a `Sendable` value.
public struct AppStep: Sendable, Hashable, Codable {
  /// The command's name (never an alias).
  public var command: String
  /// The checked arguments.
  public var arguments: CommandArguments

  /// Makes a step.
  public init(_ command: String, _ arguments: CommandArguments = CommandArguments()) {
    self.command = command
    self.arguments = arguments
  }
}
