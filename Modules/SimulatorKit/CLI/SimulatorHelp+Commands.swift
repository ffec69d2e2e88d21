extension SimulatorHelp {
  /// The flow commands of the loaded app, by category, appended to `weft-sim --help` and
  /// `weft-sim help run` (empty for the other pages).
  ///
  /// - Complexity: O(c), c = commands.
  public static func commands(
    of plugin: SimulatorPlugin, for subcommand: SimulatorSubcommand?
  )
    -> String
  {
    guard subcommand == nil || subcommand == .run else { return "" }
    let catalog = plugin.catalog
    var lines = ["", "FLOW COMMANDS (\(plugin.name)):"]
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
