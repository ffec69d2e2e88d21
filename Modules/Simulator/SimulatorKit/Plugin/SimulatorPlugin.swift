import Foundation
import SimulatorFlow
import WeftCore
import WeftRuntime

/// An app `weft-sim` can drive: its commands and how to launch it.
///
/// The engine (`SimulatorKit`) owns the flow language's core, the runner, headless views,
/// metrics, reports, sweep, gate and CLI; a plug-in adds its app's commands to the language
/// and builds the app for a run. `weft-sim gate` finds the app's flows in `Flows/` and its
/// thresholds in `Gates/thresholds.json` under the working directory, as for the bundled
/// app. A simulator for your app is a few lines:
///
/// ```swift
/// let plugin = SimulatorPlugin(name: "notes", commands: NotesCommands.all) { launch in
///   try await NotesSimulation.make(seed: launch.seed)
/// }
/// exit(await Simulator.main(Array(CommandLine.arguments.dropFirst()), plugin: plugin))
/// ```
///
/// - Note: Isolation: a `Sendable` value; `launch` and commands run on the MainActor.
public struct SimulatorPlugin: Sendable {
  typealias Perform =
    @MainActor @Sendable (any SimulatedApp, CommandArguments) async throws -> Void

  /// The app's name, as the help and reports show it.
  public let name: String
  /// The simulator executable's name (`weft-sim`, `notes-sim`): the program name
  /// `Simulator.main` and `Simulator.start` use unless given one, passed to the help, usage
  /// errors, the gate's summary and fix hint and explore's replay line. Reports keep naming
  /// their format `weft-sim`, the engine's, so they merge and compare across apps.
  public let executable: String
  /// The flow language with the app's commands: what flows are parsed against.
  public let catalog: CommandCatalog
  /// Whether the app runs on the deterministic runtime (started with `Simulator.start`).
  public let scheduling: Scheduling
  /// The app's own command-line options (`LaunchOption`), for `run` and `explore`.
  public let launchOptions: [LaunchOption]
  let performers: [String: Perform]
  let launcher: @MainActor @Sendable (SimulationLaunch) async throws -> any SimulatedApp

  /// Makes a plug-in.
  ///
  /// - Parameters:
  ///   - name: the app's name.
  ///   - executable: the simulator executable's name, for help and messages.
  ///   - commands: the app's commands; their names and aliases must not repeat each other's
  ///     or the engine's (a repeat is a programming error the engine reports by trapping
  ///     at start-up, with both names).
  ///   - scheduling: `.deterministic` for an app on the deterministic runtime (its
  ///     executable calls `Simulator.start`); `.threaded` (the default) for an app whose
  ///     settling is its own tracked work.
  ///   - launch: builds the app for one run; a thrown error is reported, never a crash.
  /// - Complexity: O(c), c = commands.
  public init<App: SimulatedApp>(
    name: String, executable: String = "weft-sim", commands: [AppCommand<App>],
    scheduling: Scheduling = .threaded, launchOptions: [LaunchOption] = [],
    launch: @escaping @MainActor @Sendable (SimulationLaunch) async throws -> App
  ) {
    self.name = name
    self.executable = executable
    self.scheduling = scheduling
    self.launchOptions = launchOptions
    var performers: [String: Perform] = [:]
    for command in commands {
      let perform = command.perform
      let commandName = command.command.name
      performers[commandName] = { app, arguments in
        guard let app = app as? App else {
          throw SimulationError("'\(commandName)' is a command of another app")
        }
        try await perform(app, arguments)
      }
    }
    self.performers = performers
    self.catalog = CommandCatalog(
      plugin: commands.map {
        CommandSpec(declared: $0.command, arguments: $0.arguments, check: $0.check)
      })
    self.launcher = { options in try await launch(options) }
  }

  /// Builds the app for one run, with each of the plug-in's `launchOptions` the launch does
  /// not give set to its default.
  ///
  /// - Throws: `SimulationError` when the app cannot launch.
  /// - Note: Isolation: MainActor.
  @MainActor
  public func launch(_ options: SimulationLaunch) async throws(SimulationError) -> any SimulatedApp
  {
    // For apps on the process-wide monitor: every cell reports there unless given another,
    // so clients and stores built deep inside the app are counted from its first commit. An
    // app that owns its monitor (the health app) makes a fresh one per launch instead, and
    // another app's launch here never resets its counts.
    PerformanceMonitor.shared.setEnabled(true)
    PerformanceMonitor.shared.reset()
    var options = options
    // Every launch sees each declared option: the command line's value, else its default.
    options.options = LaunchOption.resolve(options.options, among: launchOptions)
    // The world the launch sees, the same in every mode (run, gate, explore): random draws
    // and UUIDs from the launch's seed, the wall clock from the flow's `date` or the fixed
    // default.
    DeterministicRuntime.current?.restartWorld(seed: options.seed, wallClock: options.wallClock)
    do {
      return try await launcher(options)
    } catch {
      throw SimulationError.from(error, kind: .launch, prefix: "the app did not launch: ")
    }
  }

  /// Carries out one plug-in step on `app`.
  ///
  /// - Throws: `SimulationError` with the command's own message.
  /// - Note: Isolation: MainActor.
  @MainActor
  func perform(_ step: AppStep, on app: any SimulatedApp) async throws(SimulationError) {
    guard let perform = performers[step.command] else {
      throw SimulationError("'\(step.command)' is not a command of \(name)", kind: .flow)
    }
    do {
      try await perform(app, step.arguments)
    } catch {
      throw SimulationError.from(error, kind: .command)
    }
  }
}

/// How a simulated app's work is scheduled.
///
/// - Note: Isolation: a `Sendable` value.
public enum Scheduling: Sendable, Equatable {
  /// On threads: settled when nothing has committed for a moment (real time; a best
  /// effort whose counts vary), `clock advance` refused.
  case threaded
  /// On WeftRuntime's deterministic runtime: one thread, a seeded order, virtual time.
  case deterministic
}

/// What a plug-in is asked to launch.
///
/// - Note: Isolation: a `Sendable` value.
public struct SimulationLaunch: Sendable, Equatable {
  /// Seeds every random draw of the run (network jitter, fault rates, generated ids).
  public var seed: UInt64
  /// Where the app keeps its on-disk state between runs (`--state-dir`); `nil` for a fresh
  /// temporary folder removed after the run.
  public var stateDirectory: String?
  /// The values of the plug-in's `launchOptions`, by name: what the command line gave, else
  /// each option's default.
  public var options: [String: String]
  /// The wall clock at launch: the flow's `date INSTANT`, else `Flow.defaultReferenceDate`.
  /// In a deterministic run `Date()` reads it at virtual time zero; an app whose simulated
  /// world keeps its own calendar starts it here too (the health app's backend does).
  public var date: Date

  /// Makes launch options.
  public init(
    seed: UInt64, stateDirectory: String? = nil, options: [String: String] = [:],
    date: Date = Flow.defaultReferenceDate
  ) {
    self.seed = seed
    self.stateDirectory = stateDirectory
    self.options = options
    self.date = date
  }

  /// `date` as the runtime's wall clock: a duration since 1970, whole nanoseconds.
  var wallClock: Duration {
    .nanoseconds(Int64((date.timeIntervalSince1970 * 1e9).rounded()))
  }
}

extension SimulationError {
  /// `error` itself when it is a `SimulationError`, otherwise a `kind` error with its
  /// description (after `prefix`), keeping `error` as the underlying error.
  static func from(_ error: any Error, kind: Kind, prefix: String = "") -> SimulationError {
    if let error = error as? SimulationError { return error }
    return SimulationError(prefix + String(describing: error), kind: kind, underlying: error)
  }
}
