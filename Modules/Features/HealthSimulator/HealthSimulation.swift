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

  /// `weft-sim`'s plug-in for the health app.
  public static let plugin = SimulatorPlugin(name: "health", commands: HealthCommands.all) {
    launch in try await make(seed: launch.seed)
  }

  /// Builds the app with simulated dependencies seeded by `seed`.
  ///
  /// - Throws: `SimulationError` if the app cannot launch.
  public static func make(seed: UInt64) async throws(SimulationError) -> HealthSimulation {
    // An on-disk database in a fresh temporary folder, so `app.relaunch` restores the
    // session the way a real relaunch would; removed by `shutDown()`, or at exit, SIGINT or
    // SIGTERM, or by the next run after a SIGKILL (see `TemporaryFolders`).
    let folder = try TemporaryFolders.make()
    let dependencies = AppDependencies.simulated(
      seed: seed, databasePath: folder.appendingPathComponent("app.sqlite").path,
      monitor: .shared)
    do throws(AppRuntimeError) {
      let runtime = try await AppRuntime.build(dependencies)
      return HealthSimulation(runtime: runtime, folder: folder)
    } catch {
      TemporaryFolders.remove(folder)
      throw SimulationError("the app did not launch: \(error)")
    }
  }

  init(runtime: AppRuntime, folder: URL) {
    self.runtime = runtime
    self.folder = folder
    self.driver = WeftAppDriver(
      settler: runtime.settler, paths: { runtime.paths },
      launchCount: { runtime.launchCount },
      sqlStatements: { runtime.databaseStatistics.statements })
  }

  public var now: Date { runtime.now }

  /// Stops the app's work, closes its database and removes its files.
  public func shutDown() async {
    await runtime.shutDown()
    TemporaryFolders.remove(folder)
  }
}
