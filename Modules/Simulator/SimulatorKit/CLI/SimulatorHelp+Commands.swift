import Foundation

extension SimulatorHelp {
  /// The loaded app's own options (run and explore) and its flow commands, by category,
  /// appended to `weft-sim --help` and `weft-sim help run` (the options alone for `explore`;
  /// empty for the other pages).
  ///
  /// - Complexity: O(c), c = commands.
  static func commands(
    of plugin: SimulatorPlugin, for subcommand: SimulatorSubcommand?
  )
    -> String
  {
    var lines: [String] = []
    if subcommand == nil || subcommand == .run || subcommand == .explore,
      !plugin.launchOptions.isEmpty
    {
      lines += ["", "APP OPTIONS (\(plugin.name); run and explore):"]
      for option in plugin.launchOptions {
        let usage = "  --\(option.name) <\(option.placeholder.lowercased())>"
        let summary =
          option.summary + (option.defaultValue.map { " (default: \($0))" } ?? "")
        if usage.count < 20 {
          lines.append(usage.padding(toLength: 20, withPad: " ", startingAt: 0) + summary)
        } else {
          lines.append(usage)
          lines.append(String(repeating: " ", count: 20) + summary)
        }
      }
    }
    guard subcommand == nil || subcommand == .run else { return lines.joined(separator: "\n") }
    let catalog = plugin.catalog
    lines += ["", "FLOW COMMANDS (\(plugin.name)):"]
    for category in catalog.categories {
      lines.append("  \(category.title):")
      for command in catalog.commands where command.category == category {
        lines.append("    \(command.usage)")
      }
    }
    lines.append("")
    lines.append("  See docs/simulator-language.md for what each command does.")
    return lines.joined(separator: "\n")
  }
}
