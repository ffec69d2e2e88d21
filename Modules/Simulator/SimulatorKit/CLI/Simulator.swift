import Foundation
import SimulatorFlow
import SimulatorReports
import WeftCore
import WeftRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `weft-sim`'s commands: everything but reading `CommandLine.arguments` lives here, so it is
/// tested like any library code.
///
/// - Note: Isolation: MainActor (the simulator attaches views where real views live).
@MainActor
public enum Simulator {
  /// Where output goes; tests capture it.
  public struct Output: Sendable {
    public var standard: @Sendable (String) -> Void
    public var error: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress is shown only then).
    public var isTerminal: Bool

    public init(
      standard: @escaping @Sendable (String) -> Void,
      error: @escaping @Sendable (String) -> Void, isTerminal: Bool
    ) {
      self.standard = standard
      self.error = error
      self.isTerminal = isTerminal
    }

    /// The process's standard output and error.
    public static var console: Output {
      Output(
        standard: { print($0) },
        error: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
        isTerminal: isatty(2) == 1)
    }
  }

  /// Runs the simulator with `arguments` (without the program name); returns the exit code:
  /// 0 ok, 1 expectation or regression failure, 2 usage or flow error.
  ///
  /// No arguments prints the usage to standard error and returns 2; `--version` prints
  /// `Weft.version`; `--help`, `SUBCOMMAND --help` and `help SUBCOMMAND` print help to
  /// standard output and return 0.
  ///
  /// - Parameter program: the executable's name, as the help, usage errors, the gate's lines
  ///   and explore's replay line print it; by default the plug-in's `executable`.
  /// - Complexity: as the command.
  /// - Note: Isolation: MainActor.
  public static func main(
    _ arguments: [String], plugin: SimulatorPlugin, program: String? = nil,
    output: Output = .console
  ) async -> Int32 {
    let program = program ?? plugin.executable
    let command: SimulatorCommand
    do throws(UsageError) {
      command = try SimulatorCommand.parse(arguments, launchOptions: plugin.launchOptions)
    } catch {
      output.error(error.text(program: program))
      return 2
    }
    switch command {
    case .help(let subcommand):
      output.standard(
        SimulatorHelp.text(subcommand, program: program)
          + SimulatorHelp.commands(of: plugin, for: subcommand))
      return 0
    case .version:
      output.standard(Weft.version)
      return 0
    case .check(let files):
      return await check(files, plugin: plugin, output: output)
    case .run(let arguments):
      return await run(arguments, plugin: plugin, output: output)
    case .sweep(let arguments):
      return await SweepCommand(arguments: arguments, plugin: plugin, output: output).run()
    case .gate(let arguments):
      return await GateCommand(
        arguments: arguments, plugin: plugin, program: program, output: output
      ).run()
    case .merge(let arguments):
      return MergeCommand(arguments: arguments, program: program, output: output).run()
    case .explore(let arguments):
      return await ExploreCommand(
        arguments: arguments, plugin: plugin, program: program, output: output
      ).run()
    }
  }

  /// The entry point of a simulator executable whose plug-in runs on the deterministic
  /// runtime: call it as the only statement of `main.swift`. It fixes the hashing seed and
  /// the address layout (`DeterministicProcess`, which runs the executable again once with
  /// them), installs the runtime before anything asynchronous runs
  /// (with the `--schedule-seed` of the arguments), runs `main`
  /// on it and exits with its code. Where the runtime is unavailable (Apple platforms before
  /// 26.4) it says so in one line and runs threaded, as `main` does. A plug-in on threads
  /// (`scheduling: .threaded`) runs threaded, and so does any plug-in when the environment
  /// has `WEFT_RUNTIME=threaded` (to compare the two, or to rule the runtime out).
  /// `program` is passed to `main` (by default the plug-in's `executable`).
  ///
  /// - Note: Isolation: the main thread of a synchronous `main.swift`.
  public nonisolated static func start(
    _ arguments: [String], plugin: SimulatorPlugin, program: String? = nil
  ) -> Never {
    let program = program ?? plugin.executable
    let forcedThreads = ProcessInfo.processInfo.environment["WEFT_RUNTIME"] == "threaded"
    if plugin.scheduling == .deterministic, !forcedThreads {
      // Hashing seeds and addresses, fixed too (may run the executable again, once).
      DeterministicProcess.ensure()
      let scheduleSeed = Self.scheduleSeed(in: arguments)
      if DeterministicRuntime.install(scheduleSeed: scheduleSeed) == nil {
        Output.console.error(
          "\(program): the deterministic runtime needs Swift 6.3's executor SPI (Linux, or "
            + "macOS/iOS 26.4); running on threads")
      }
    }
    Task { @MainActor in
      let code = await main(arguments, plugin: plugin, program: program)
      ExitSignals.yieldToPendingExit()  // a SIGINT/SIGTERM decides the exit code: 130/143
      exit(code)
    }
    if DeterministicRuntime.current != nil {
      DeterministicRuntime.runMainLoop()
    } else {
      dispatchMain()
    }
    exit(0)
  }

  /// `--schedule-seed S` among `arguments`, read before they are parsed (the runtime is
  /// installed first); a bad value is left for the parser to report. A PCT seed installs
  /// arrival order: `run` sets its chooser just before the launch, as `explore` does.
  nonisolated static func scheduleSeed(in arguments: [String]) -> UInt64? {
    let arguments = SimulatorCommand.splittingInlineValues(arguments)
    guard let index = arguments.firstIndex(of: "--schedule-seed"), index + 1 < arguments.count,
      let argument = ScheduleArgument(arguments[index + 1]), argument.pct == nil
    else { return nil }
    return argument.seed
  }

  /// Parses each flow against the app's observable paths.
  static func check(_ files: [String], plugin: SimulatorPlugin, output: Output) async -> Int32 {
    let app: any SimulatedApp
    do throws(SimulationError) {
      app = try await plugin.launch(SimulationLaunch(seed: defaultSeed))
    } catch {
      output.error("error: \(error)")
      return 2
    }
    defer { Task { await app.shutDown() } }
    var failed = false
    for file in files {
      do throws(FlowError) {
        let flow = try load(file, for: app, plugin: plugin)
        output.standard("\(file): ok (\(flow.steps.count) steps)")
      } catch {
        output.error(error.description)
        failed = true
      }
    }
    return failed ? 2 : 0
  }

  /// The seed of a run when neither `--seed` nor the flow's `seed` line gives one.
  static let defaultSeed: UInt64 = 1

  /// Loads `file` and builds the app for its seed (or `seed` when given). The returned
  /// flow's `seed` is the one the app was built with, so the report states the seed used.
  ///
  /// The app is launched once, with the right seed: the flow's `seed` line is read first
  /// from a parse without the app's paths (a parse costs far less than a launch, and a
  /// launch on a state folder is itself a step of the app's life: a relaunched app syncs its
  /// outbox); the paths are checked by the parse after the launch.
  static func prepare(
    _ file: String, seed: UInt64?, plugin: SimulatorPlugin, output: Output,
    stateDirectory: String? = nil, defines: [String: String] = [:],
    launchOptions: [String: String] = [:]
  ) async -> (Flow, any SimulatedApp)? {
    var seed = seed
    var date = Flow.defaultReferenceDate
    // The flow's `seed` and `date` lines decide the launch (the app may read the clock while
    // launching), so they are read first, also when `--seed` is given.
    do throws(FlowError) {
      let header = try Flow.load(
        path: file, options: Flow.ParseOptions(commands: plugin.catalog, defines: defines))
      seed = seed ?? header.seed ?? defaultSeed
      date = header.date ?? date
    } catch {
      // The flow has errors: the parse after the launch reports all of them, paths
      // included (a state folder is not touched by a flow that cannot run).
      guard stateDirectory != nil else {
        return await failedParse(file, plugin, output, defines: defines, options: launchOptions)
      }
      output.error(error.description)
      return nil
    }
    var app: any SimulatedApp
    do throws(SimulationError) {
      app = try await plugin.launch(
        SimulationLaunch(
          seed: seed ?? defaultSeed, stateDirectory: stateDirectory, options: launchOptions,
          date: date))
    } catch {
      output.error("error: \(error)")
      return nil
    }
    var flow: Flow
    do throws(FlowError) {
      flow = try load(file, for: app, plugin: plugin, defines: defines)
    } catch {
      await Simulator.shutDown(app)
      output.error(error.description)
      return nil
    }
    let wanted = seed ?? flow.seed ?? defaultSeed
    flow.seed = wanted
    if wanted != (seed ?? defaultSeed) {
      await Simulator.shutDown(app)
      do throws(SimulationError) {
        app = try await plugin.launch(
          SimulationLaunch(
            seed: wanted, stateDirectory: stateDirectory, options: launchOptions, date: date))
      } catch {
        output.error("error: \(error)")
        return nil
      }
    }
    return (flow, app)
  }

  /// Parses `file` against what the launched `app` declares: its paths and their words, its
  /// virtual date, the plug-in's commands, and the command line's `--define`s.
  ///
  /// - Throws: the flow's errors (up to `Flow.maxReportedErrors`).
  /// - Complexity: O(file size + steps).
  static func load(
    _ file: String, for app: any SimulatedApp, plugin: SimulatorPlugin,
    defines: [String: String] = [:]
  ) throws(FlowError) -> Flow {
    try Flow.load(
      path: file, knownPaths: Set(app.observablePathNames),
      options: Flow.ParseOptions(
        now: app.now, commands: plugin.catalog, defines: defines,
        pathValues: app.observablePathValues))
  }

  /// Shuts `app` down and, on the deterministic runtime, lets what the shutdown woke run to
  /// its end (cancelled sleeps and requests), then drops the timers still parked and sets
  /// virtual time back to zero: nothing of this launch runs during the next one, whose
  /// counts would otherwise depend on which flow ran before (a gate runs many in one process).
  ///
  /// - Complexity: the app's shutdown plus the work it wakes.
  static func shutDown(_ app: any SimulatedApp) async {
    await app.shutDown()
    guard let runtime = DeterministicRuntime.current else { return }
    await runtime.settle()
    runtime.reset(scheduleSeed: runtime.scheduleSeed)
  }

  /// After `run --schedule`: says where a recorded schedule stopped matching the run (the app
  /// changed since it was recorded), on standard error.
  static func noteReplay(
    of script: [ScheduleChooser.Decision], used: ScheduleChooser, seed: String, output: Output
  ) {
    if let at = used.divergence {
      output.error(
        "note: the schedule stopped matching at decision \(at + 1) of \(script.count) (another "
          + "number of ready jobs there: the app or the flow changed since it was recorded); "
          + "schedule seed \(seed) picked from there on")
    } else if used.decisions.count != script.count {
      output.error(
        "note: the run made \(used.decisions.count) scheduling decisions, the schedule has "
          + "\(script.count)"
          + (used.decisions.count > script.count
            ? "; schedule seed \(seed) picked the rest" : ""))
    }
  }

  /// Reports every error of a flow whose first parse failed: launches the app (seed 1) for
  /// its paths, parses again with them, shuts the app down.
  private static func failedParse(
    _ file: String, _ plugin: SimulatorPlugin, _ output: Output, defines: [String: String],
    options: [String: String]
  ) async -> (Flow, any SimulatedApp)? {
    do throws(SimulationError) {
      let app = try await plugin.launch(SimulationLaunch(seed: defaultSeed, options: options))
      do throws(FlowError) {
        _ = try load(file, for: app, plugin: plugin, defines: defines)
      } catch {
        output.error(error.description)
      }
      await Simulator.shutDown(app)
    } catch {
      output.error("error: \(error)")
    }
    return nil
  }

  static func run(
    _ arguments: RunArguments, plugin: SimulatorPlugin, output: Output
  ) async
    -> Int32
  {
    if arguments.scheduleSeed != nil || arguments.schedule != nil,
      DeterministicRuntime.current == nil
    {
      output.error(
        "error: --schedule-seed and --schedule need an app on the deterministic runtime (this "
          + "one runs on threads)")
      return 2
    }
    if arguments.checkDeterminism {
      return DeterminismCheck(arguments: arguments, output: output).run()
    }
    var replayed: [ScheduleChooser.Decision]?
    let seed = arguments.scheduleSeed ?? 1
    if let text = arguments.schedule, let runtime = DeterministicRuntime.current {
      do throws(ScheduleString.Problem) {
        let script = try ScheduleString.decode(text)
        replayed = script
        runtime.reset(
          chooser: arguments.pct.map {
            ScheduleChooser(pct: $0, seed: seed, script: script, recording: true)
          } ?? ScheduleChooser(seed: seed, script: script, recording: true))
      } catch {
        output.error("error: --schedule: \(error)")
        return 2
      }
    } else if let pct = arguments.pct, let runtime = DeterministicRuntime.current {
      runtime.reset(chooser: ScheduleChooser(pct: pct, seed: seed))
    }
    guard
      let (flow, app) = await prepare(
        arguments.flow, seed: arguments.seed, plugin: plugin, output: output,
        stateDirectory: arguments.stateDirectory, defines: arguments.defines,
        launchOptions: arguments.launchOptions)
    else { return 2 }
    if arguments.jobTrace != nil { DeterministicRuntime.current?.startJobTrace() }
    let report = await execute(
      flow, on: app, plugin: plugin, explain: arguments.explain,
      deterministic: arguments.deterministic,
      trace: arguments.trace, progress: arguments.progress && !arguments.json, output: output)
    if let replayed, let used = DeterministicRuntime.current?.chooser {
      Self.noteReplay(
        of: replayed, used: used,
        seed: arguments.pct.map { $0.argument(seed: seed) } ?? String(seed), output: output)
    }
    if let path = arguments.jobTrace, let runtime = DeterministicRuntime.current {
      let data: Data
      do {
        data = try JSONEncoder().encode(runtime.takeJobTrace())
      } catch {
        output.error("error: cannot encode the job trace: \(error)")
        return 2
      }
      guard write(String(decoding: data, as: UTF8.self), to: path, output: output) else {
        return 2
      }
    }
    await Simulator.shutDown(app)
    output.standard(
      arguments.json
        ? JSONRenderer().render(report) : TableRenderer(explain: arguments.explain).render(report))
    if let html = arguments.html, !write(HTMLRenderer().render(report), to: html, output: output) {
      return 2
    }
    return report.exitCode
  }

  /// Runs `flow` on `app` and returns the report (writing the trace file if asked).
  static func execute(
    _ flow: Flow, on app: any SimulatedApp, plugin: SimulatorPlugin, explain: Bool,
    deterministic: Bool, trace: String?,
    progress: Bool, output: Output
  ) async -> RunReport {
    let traceLines = TraceLines()
    let started = RealClock.monotonicNanoseconds
    let showProgress = progress && output.isTerminal
    let fileName = flow.file
    var traceSink: (@Sendable (String) -> Void)?
    if trace != nil { traceSink = { traceLines.append($0) } }
    var progressSink: (@Sendable (Int, Int) -> Void)?
    if showProgress {
      progressSink = { done, total in
        guard RealClock.since(started) > .seconds(1) else { return }
        let line = "\r\u{1B}[2K\(fileName): step \(done)/\(total)" + (done == total ? "\n" : "")
        FileHandle.standardError.write(Data(line.utf8))
      }
    }
    let options = FlowRunner.Options(explain: explain, trace: traceSink, progress: progressSink)
    let deliveries = app.deliveries  // the app's own queue: no other app in the process waits
    if deterministic { deliveries.pause() }
    let runner = FlowRunner(app: app, plugin: plugin, options: options)
    let report = Self.numberedFromOne(await runner.run(flow))
    runner.tearDown()
    if deterministic {
      deliveries.drainNow()
      deliveries.resume()
    }
    if let trace {
      _ = write(traceLines.lines.joined(separator: "\n") + "\n", to: trace, output: output)
    }
    return report
  }

  /// `report` with its steps numbered from 1 in order (`StepReport.index`, the table's `#`,
  /// JSON's `index`, a failure's `step`), the same numbers as the trace and progress lines.
  /// `FlowRunner` numbers them from 0; renumbering by position is idempotent, so it stays
  /// right if the runner is changed to count from 1.
  ///
  /// - Complexity: O(steps + failures).
  static func numberedFromOne(_ report: RunReport) -> RunReport {
    var report = report
    var renumbered: [Int: Int] = [:]
    for position in report.steps.indices {
      renumbered[report.steps[position].index] = position + 1
      report.steps[position].index = position + 1
    }
    for position in report.failures.indices {
      if let step = report.failures[position].step {
        report.failures[position].step = renumbered[step] ?? step
      }
    }
    return report
  }

  @discardableResult
  static func write(_ text: String, to path: String, output: Output) -> Bool {
    do {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      return true
    } catch {
      output.error("error: cannot write '\(path)': \(error.localizedDescription)")
      return false
    }
  }
}

/// Lines collected from the runner's trace callback.
final class TraceLines: Sendable {
  // WeftCore's lock: ThreadSanitizer cannot see Synchronization.Mutex on Linux.
  private let storage = Locked<[String]>([])
  func append(_ line: String) { storage.withLock { $0.append(line) } }
  var lines: [String] { storage.withLock { $0 } }
}
