import AppFeature
import Foundation
import HealthHarness
import SimulatorKit
import WeftCore
import WeftRuntime
import WeftSimulation

/// The bundled health app under the simulator: HealthHarness's `SimulatedHealthApp` (AppFeature's
/// runtime in a seeded in-process world, virtual time, an on-disk SQLite database in a
/// temporary folder). Its commands are `HealthCommands`; settling, waits, paths and counters
/// come from `WeftAppDriver`.
///
/// Under weft-sim, on WeftRuntime's deterministic runtime, the app sleeps on `RuntimeClock`
/// (virtual time, exact delays) and the runtime settles it, once per step: the app's
/// actions do not run until idle themselves (`runsUntilIdleAfterEachAction` off). The app
/// carries no simulation code.
///
/// - Note: Isolation: MainActor.
@MainActor
public final class HealthSimulation: WeftSimulatedApp {
  /// The runtime being driven.
  public let runtime: SimulatedHealthApp
  /// Settling, paths and counters.
  public let driver: WeftAppDriver
  let folder: URL
  /// Whether `folder` is the user's `--state-dir` (kept) or a temporary folder (removed).
  let keepsFolder: Bool

  /// `weft-sim`'s plug-in for the health app.
  nonisolated public static let plugin = SimulatorPlugin(
    name: "health", commands: HealthCommands.all, scheduling: .deterministic,
    launchOptions: [latencyOption]
  ) {
    launch in
    try await make(
      seed: launch.seed, stateDirectory: launch.stateDirectory,
      latency: try latency(launch.options[latencyOption.name]), start: launch.date)
  }

  /// `--latency DURATION`: the simulated network's base latency (`40ms` by default).
  nonisolated static let latencyOption = LaunchOption(
    "latency", summary: "The simulated network's base latency (ms or s).",
    placeholder: "DURATION", default: "40ms")

  /// `--latency`'s value: whole milliseconds (`40ms`) or seconds (`2s`).
  nonisolated static func latency(_ text: String?) throws(SimulationError) -> Duration {
    guard let text else { return .milliseconds(40) }
    if text.hasSuffix("ms"), let value = Int(text.dropLast(2)), value >= 0 {
      return .milliseconds(value)
    }
    if text.hasSuffix("s"), let value = Int(text.dropLast(1)), value >= 0 {
      return .seconds(value)
    }
    throw SimulationError(
      "--latency: '\(text)' is not a duration; write whole milliseconds or seconds (40ms, 2s)",
      kind: .option)
  }

  /// Builds the app with simulated dependencies seeded by `seed`.
  ///
  /// Without `stateDirectory` the database lives in a fresh temporary folder, so
  /// `app.relaunch` restores the session the way a real relaunch would; it is removed by
  /// `shutDown()`, or at exit, SIGINT or SIGTERM, or by the next run after a SIGKILL (see
  /// `TemporaryFolders`). With one, the database (`app.sqlite`), the session token
  /// (`secure-storage/secrets`, a `FileSecureStorage`) and the simulated backend
  /// (`backend.json`) live there and stay: the next run on the same folder finds the
  /// session, the outbox and the backend's records as this one committed them, even after
  /// a SIGKILL. Each launch on a folder draws its ids from the seed mixed with the folder's
  /// launch number (`launches`), so a continuation never reissues the ids of a run before.
  ///
  /// - Throws: `SimulationError` if the folder cannot be used or the app cannot launch.
  public static func make(
    seed: UInt64, stateDirectory: String? = nil, latency: Duration = .milliseconds(40),
    start: Date = SimulationEnvironment.referenceDate
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
    let deterministic = DeterministicRuntime.current
    do throws(AppRuntimeError) {
      let app = try await SimulatedHealthApp(
        seed: seed, databasePath: folder.appendingPathComponent("app.sqlite").path,
        start: start, latency: latency,
        // The app owns its engine state: a monitor and a MainActor delivery queue of its own,
        // fresh for each launch, so its counts start at zero and no other app (or test) in
        // the process resets, pauses or drains them.
        monitor: PerformanceMonitor(enabled: true, deliveries: MainActorDeliveries()),
        backendFile: keeps ? folder.appendingPathComponent("backend.json") : nil,
        // The session token: in memory for one process; in the state folder's owner-only
        // store when the session must outlive it.
        secrets: keeps
          ? FileSecureStorage(folder: folder.appendingPathComponent("secure-storage").path)
          : InMemorySecureStorage(),
        runsUntilIdleAfterEachAction: false)
      return HealthSimulation(
        runtime: app, folder: folder, keepsFolder: keeps, deterministic: deterministic)
    } catch {
      if !keeps { TemporaryFolders.remove(folder) }
      throw SimulationError("the app did not launch: \(error)", kind: .launch, underlying: error)
    }
  }

  init(
    runtime: SimulatedHealthApp, folder: URL, keepsFolder: Bool = false,
    deterministic: DeterministicRuntime? = nil
  ) {
    self.runtime = runtime
    self.folder = folder
    self.keepsFolder = keepsFolder
    self.driver = WeftAppDriver(
      runtime: deterministic, monitor: runtime.monitor, paths: { runtime.paths },
      launchCount: { runtime.launchCount },
      sqlStatements: { runtime.databaseStatistics.statements })
  }

  public var now: Date { runtime.now }

  /// Runs until nothing is left to run: on the deterministic runtime, fires timer after
  /// timer (retries, backoff, latency) until none is pending, within `timeout` of virtual
  /// time (1 hour by default); on threads, the driver's best-effort settle.
  ///
  /// - Throws: `SimulationError` when timers are still pending at the timeout.
  /// - Complexity: the work that runs.
  func waitUntilQuiet(timeout: Duration?) async throws(SimulationError) {
    guard let deterministic = driver.runtime else {
      await driver.settle()
      return
    }
    let limit = timeout ?? .seconds(3_600)
    if let next = await deterministic.runUntilIdle(within: limit) {
      throw SimulationError(
        "the app was not idle after \(limit) of virtual time: "
          + "\(deterministic.pendingTimers.count) timer(s) pending, the next at \(next)",
        kind: .settle)
    }
  }

  /// Stops the app's work, closes its database and removes its files (a `--state-dir` is
  /// kept).
  public func shutDown() async {
    await runtime.shutDown()
    if !keepsFolder { TemporaryFolders.remove(folder) }
  }
}
