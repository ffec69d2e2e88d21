import AppFeature
import Foundation
import SimulatorKit
import WeftCore
import WeftSimulation

/// The bundled health app under the simulator: AppFeature's runtime built with the simulated
/// configuration (a seeded in-process backend, a virtual clock, an on-disk SQLite database
/// in a temporary folder). Its commands are `HealthCommands`; settling, waits, paths and
/// counters come from `WeftAppDriver`.
///
/// - Note: Isolation: MainActor.
@MainActor
public final class HealthSimulation: WeftSimulatedApp {
  /// The runtime being driven.
  public let runtime: AppRuntime
  /// Settling, paths and counters.
  public let driver: WeftAppDriver
  let folder: URL
  /// Whether `folder` is the user's `--state-dir` (kept) or a temporary folder (removed).
  let keepsFolder: Bool

  /// `weft-sim`'s plug-in for the health app.
  nonisolated public static let plugin = SimulatorPlugin(
    name: "health", commands: HealthCommands.all, scheduling: .deterministic
  ) {
    launch in
    try await make(seed: launch.seed, stateDirectory: launch.stateDirectory)
  }

  /// Builds the app with simulated dependencies seeded by `seed`.
  ///
  /// Without `stateDirectory` the database lives in a fresh temporary folder, so
  /// `app.relaunch` restores the session the way a real relaunch would; it is removed by
  /// `shutDown()`, or at exit, SIGINT or SIGTERM, or by the next run after a SIGKILL (see
  /// `TemporaryFolders`). With one, the database (`app.sqlite`) and the simulated
  /// backend (`backend.json`) live there and stay: the next run on the same folder finds the
  /// session, the outbox and the backend's records as this one committed them, even after
  /// a SIGKILL. Each launch on a folder draws its ids from the seed mixed with the folder's
  /// launch number (`launches`), so a continuation never reissues the ids of a run before.
  ///
  /// - Throws: `SimulationError` if the folder cannot be used or the app cannot launch.
  public static func make(
    seed: UInt64, stateDirectory: String? = nil
  ) async throws(SimulationError) -> HealthSimulation {
    let folder: URL
    var seed = seed
    if let stateDirectory {
      folder = URL(fileURLWithPath: stateDirectory, isDirectory: true)
      seed ^= try StateDirectory.nextLaunch(in: folder) &* 0x9E37_79B9_7F4A_7C15
    } else {
      folder = try TemporaryFolders.make()
    }
    let keeps = stateDirectory != nil
    let dependencies = AppDependencies.simulated(
      seed: seed, databasePath: folder.appendingPathComponent("app.sqlite").path,
      monitor: .shared,
      backendFile: keeps ? folder.appendingPathComponent("backend.json") : nil)
    do throws(AppRuntimeError) {
      let runtime = try await AppRuntime.build(dependencies)
      return HealthSimulation(runtime: runtime, folder: folder, keepsFolder: keeps)
    } catch {
      if !keeps { TemporaryFolders.remove(folder) }
      throw SimulationError("the app did not launch: \(error)")
    }
  }

  init(runtime: AppRuntime, folder: URL, keepsFolder: Bool = false) {
    self.runtime = runtime
    self.folder = folder
    self.keepsFolder = keepsFolder
    self.driver = WeftAppDriver(
      settler: runtime.settler, paths: { runtime.paths },
      launchCount: { runtime.launchCount },
      sqlStatements: { runtime.databaseStatistics.statements })
  }

  public var now: Date { runtime.now }

  /// Stops the app's work, closes its database and removes its files (a `--state-dir` is
  /// kept).
  public func shutDown() async {
    await runtime.shutDown()
    if !keepsFolder { TemporaryFolders.remove(folder) }
  }
}
