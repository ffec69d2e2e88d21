import NotesApp
import SimulatorFlow
import SimulatorKit

/// The Notes app's flow commands, each declared once with its typed arguments.
///
/// - Note: Isolation: constants; commands perform on the MainActor.
public enum NotesCommands {
  /// A Notes command.
  public typealias Command = AppCommand<NotesSimulation>
  /// Where `--help` lists them.
  static let notes = FlowCommand.Category("notes", title: "Notes")
  static let editor = FlowCommand.Category("editor", title: "Note editor")
  static let reminder = FlowCommand.Category("reminder", title: "Reminder")
  /// A 1-based index into the list.
  static let index = CommandArgument.positional("index", .integer(1...1_000_000), placeholder: "N")

  /// Every command, in documentation order.
  public static let all: [Command] = [
    Command(
      "note.add", summary: "Adds a note at the end of the list.", category: notes,
      arguments: [.keyword("title", .text, required: true), .keyword("pinned", .boolean)]
    ) { sim, arguments in
      try await sim.app.add(
        title: arguments.requiredText("title"), pinned: arguments.boolean("pinned") ?? false)
    },
    Command(
      "note.pin", summary: "Pins note N (1-based), or unpins it with off.", category: notes,
      arguments: [index, .positional("pinned", .boolean, optional: true)]
    ) { sim, arguments in
      try await sim.app.setPinned(
        arguments.requiredInteger("index"), arguments.boolean("pinned") ?? true)
    },
    Command(
      "note.delete", aliases: ["note.remove"], summary: "Deletes note N (1-based).",
      category: notes, arguments: [index]
    ) { sim, arguments in
      try await sim.app.delete(arguments.requiredInteger("index"))
    },
    Command(
      "note.search", summary: "Types a search query; it applies after a 300ms pause.",
      category: notes, arguments: [.positional("query", .text, placeholder: "TEXT")]
    ) { sim, arguments in
      sim.app.search(try arguments.requiredText("query"))
    },
    Command(
      "editor.open", summary: "Opens the editor on note N, or on a new note without N.",
      category: editor,
      arguments: [.positional("index", .integer(1...1_000_000), placeholder: "N", optional: true)]
    ) { sim, arguments in
      try await sim.app.edit(arguments.integer("index"))
    },
    Command(
      "editor.title", summary: "Types the title; a blank one is refused (see editor.error).",
      category: editor, arguments: [.positional("title", .text, placeholder: "TEXT")]
    ) { sim, arguments in
      await sim.app.editor.type(try arguments.requiredText("title"))
    },
    Command(
      "editor.body",
      summary: "Types the body; it is written once typing pauses for 500ms (see editor.body).",
      category: editor, arguments: [.positional("body", .text, placeholder: "TEXT")]
    ) { sim, arguments in
      sim.app.editor.body.set(try arguments.requiredText("body"))
    },
    Command(
      "editor.save", summary: "Saves the editor's note and starts a new one.", category: editor
    ) { sim, _ in
      try await sim.app.saveEditor()
    },
    Command(
      "remind", summary: "Starts a reminder counting down SECONDS (0 fires it at once).",
      category: reminder,
      arguments: [.positional("seconds", .integer(0...86_400), placeholder: "SECONDS")]
    ) { sim, arguments in
      sim.app.reminder.start(seconds: try arguments.requiredInteger("seconds"))
    },
    Command("remind.cancel", summary: "Stops the reminder without firing.", category: reminder) {
      sim, _ in
      sim.app.reminder.cancel()
    },
    Command(
      "app.relaunch", summary: "Closes the app and opens the same SQLite file again.",
      category: notes
    ) { sim, _ in
      try await sim.app.relaunch()
    },
  ]
}
