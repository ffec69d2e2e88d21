import Foundation
import NotesApp
import SimulatorKit
import WeftCore
import WeftSimulation

/// The Notes app under the simulator: `NotesRuntime` on a virtual clock, its SQLite file in
/// a temporary folder (or in `--state-dir`). Settling, waits, paths and counters come from
/// `WeftAppDriver`; the commands are `NotesCommands`.
///
/// - Note: Isolation: MainActor.
@MainActor
public final class NotesSimulation: WeftSimulatedApp {
  /// `notes-sim`'s plug-in.
  public static let plugin = SimulatorPlugin(
    name: "notes", executable: "notes-sim", commands: NotesCommands.all
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
  /// - Throws: `SimulationError` or the database's error when the app cannot launch.
  /// - Complexity: as `NotesRuntime.launch`.
  public init(_ launch: SimulationLaunch) async throws {
    let folder =
      try launch.stateDirectory.map { URL(fileURLWithPath: $0) } ?? TemporaryFolders.make()
    temporaryFolder = launch.stateDirectory == nil ? folder : nil
    let tracker = WorkTracker()
    let clock = SimulationClock(testClock: TestClock(), tracker: tracker)
    let path = folder.appendingPathComponent("notes.sqlite").path
    do {
      app = try await NotesRuntime.launch(databasePath: path, tracker: tracker, clock: clock)
    } catch {
      if let temporaryFolder { TemporaryFolders.remove(temporaryFolder) }
      throw error
    }
    let app = self.app
    driver = WeftAppDriver(
      settler: Settler(tracker: tracker, clock: clock.testClock), paths: { app.paths },
      launchCount: { app.launchCount }, sqlStatements: { app.sqlStatements })
  }

  /// Closes the database and removes the temporary folder (never a `--state-dir`).
  public func shutDown() async {
    await app.shutDown()
    if let temporaryFolder { TemporaryFolders.remove(temporaryFolder) }
  }
}
