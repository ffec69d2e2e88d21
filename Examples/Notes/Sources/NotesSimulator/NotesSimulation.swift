import Foundation
import NotesApp
import SimulatorFlow
import SimulatorKit
import WeftCore
import WeftRuntime
import WeftSimulation

/// The Notes app under the simulator, on WeftRuntime's deterministic runtime: its SQLite
/// file in a temporary folder (or in `--state-dir`), every task, hop, SQLite call and sleep a
/// job of the runtime. The plug-in is commands (`NotesCommands`), paths (`paths(of:)`) and
/// this launch — the app itself carries no simulation code.
///
/// - Note: Isolation: MainActor.
@MainActor
public final class NotesSimulation: WeftSimulatedApp {
  /// `notes-sim`'s plug-in.
  public static let plugin = SimulatorPlugin(
    name: "notes", executable: "notes-sim", commands: NotesCommands.all,
    scheduling: .deterministic
  ) {
    launch in try await NotesSimulation(launch)
  }

  /// The app being driven.
  public let app: NotesRuntime
  /// Settling, paths and counters.
  public let driver: WeftAppDriver
  private let temporaryFolder: URL?

  /// Launches the app for one run.
  ///
  /// - Throws: `SimulationError` off the deterministic runtime (notes-sim starts it with
  ///   `Simulator.start`); the database's error when the app cannot launch.
  /// - Complexity: as `NotesRuntime.launch`.
  public init(_ launch: SimulationLaunch) async throws {
    guard let runtime = DeterministicRuntime.current else {
      throw SimulationError(
        "notes-sim runs on the deterministic runtime: start it with Simulator.start "
          + "(docs/simulate-your-app.md)")
    }
    let folder =
      try launch.stateDirectory.map { URL(fileURLWithPath: $0) } ?? TemporaryFolders.make()
    temporaryFolder = launch.stateDirectory == nil ? folder : nil
    let path = folder.appendingPathComponent("notes.sqlite").path
    do {
      app = try await NotesRuntime.launch(databasePath: path)
    } catch {
      if let temporaryFolder { TemporaryFolders.remove(temporaryFolder) }
      throw error
    }
    let app = self.app
    driver = WeftAppDriver(
      runtime: runtime, paths: { Self.paths(of: app) },
      launchCount: { app.launchCount }, sqlStatements: { app.sqlStatements })
    // A keyed path: `note.2.title` for any note a flow adds (nil while there is no note 2).
    driver.keyedPaths[Self.noteTitle] = { key in
      Int(key).map { index in
        ObservablePath("note.\(index).title", cell: app.notes.cell) { state in
          .optional(state.notes.indices.contains(index - 1) ? state.notes[index - 1].title : nil)
        }
      }
    }
  }

  /// `note[N].title`: the title of note N (1-based) as the list shows it.
  static let noteTitle = PathPattern("note[N].title")!

  /// Closes the database and removes the temporary folder (never a `--state-dir`).
  public func shutDown() async {
    await app.shutDown()
    if let temporaryFolder { TemporaryFolders.remove(temporaryFolder) }
  }

  /// The observable paths of the app's current launch (new clients after a relaunch).
  ///
  /// - Complexity: O(p), p = paths.
  static func paths(of app: NotesRuntime) -> [String: ObservablePath] {
    let notes = app.notes.cell
    let editor = app.editorClient.cell
    let reminder = app.reminder.system.cell
    let list: [ObservablePath] = [
      ObservablePath("notes.count", cell: notes) { .int($0.notes.count) },
      ObservablePath("notes.pinned", cell: notes) { .int($0.pinnedCount) },
      ObservablePath("notes.lastTitle", cell: notes) { .optional($0.notes.last?.title) },
      ObservablePath("notes.visible", cell: notes) { .int($0.visible.count) },
      ObservablePath("notes.query", cell: notes) { .string($0.query) },
      ObservablePath("notes.error", cell: notes) { .optional($0.loadError) },
      ObservablePath("editor.title", cell: editor) { .string($0.title) },
      ObservablePath("editor.error", cell: editor) { .optional($0.error) },
      ObservablePath("editor.isNew", cell: editor) { .bool($0.noteID == nil) },
      ObservablePath("editor.body", cell: editor) { .string($0.body) },
      ObservablePath("reminder.remaining", cell: reminder) {
        .optional($0.remaining)
      },
      ObservablePath("reminder.fired", cell: reminder) { .int($0.fired) },
    ]
    return Dictionary(uniqueKeysWithValues: list.map { ($0.name, $0) })
  }
}
