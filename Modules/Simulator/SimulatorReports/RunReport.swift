#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything one `weft-sim` run found: the flow, how it was run, each step with its metrics
/// and causes, the total, the failures, and for `weft-sim sweep` the sweep.
///
/// The runner fills it; ``TableRenderer``, ``JSONRenderer`` and ``HTMLRenderer`` print it. Its
/// JSON form is versioned (``schemaVersion``) and documented in `docs/simulator-report.md`.
///
/// ```swift
/// var report = RunReport(flow: "fan-out", file: "Flows/fanout-100k.flow", seed: 1,
///                        configuration: .current(viewsAttached: 100_000))
/// report.steps.append(step)
/// report.total = accumulator.metrics
/// print(TableRenderer().render(report))
/// ```
///
/// - Complexity: O(s) storage, s = steps plus their causes.
/// - Note: Isolation: a value; `Sendable`.
public struct RunReport: Sendable, Equatable, Codable {
  /// The JSON schema version this type writes and reads.
  public static let currentSchemaVersion = 1
  /// The tool name written into every report.
  public static let toolName = "weft-sim"

  /// Schema version of this report (``currentSchemaVersion`` for reports made here).
  public var schemaVersion: Int
  /// Always `weft-sim`.
  public var tool: String
  /// The flow's name, from its `flow "…"` line.
  public var flow: String
  /// The flow file's path as given on the command line.
  public var file: String
  /// The seed of the virtual network and clock.
  public var seed: UInt64
  /// How the run was set up.
  public var configuration: RunConfiguration
  /// The steps, in order.
  public var steps: [StepReport]
  /// The whole run's metrics (see ``MetricsAccumulator``).
  public var total: StepMetrics
  /// Every failure: failed expectations, step errors, gate regressions.
  public var failures: [RunFailure]
  /// For `weft-sim sweep`: the cost at each size; `nil` for a plain run.
  public var sweep: SweepReport?

  /// Makes a report; steps, total and failures start empty.
  public init(
    flow: String, file: String, seed: UInt64, configuration: RunConfiguration,
    steps: [StepReport] = [], total: StepMetrics = StepMetrics(), failures: [RunFailure] = [],
    sweep: SweepReport? = nil
  ) {
    self.schemaVersion = Self.currentSchemaVersion
    self.tool = Self.toolName
    self.flow = flow
    self.file = file
    self.seed = seed
    self.configuration = configuration
    self.steps = steps
    self.total = total
    self.failures = failures
    self.sweep = sweep
  }

  /// Whether the run has no failure and no failed or errored step.
  public var succeeded: Bool {
    failures.isEmpty && !steps.contains { $0.status == .failed || $0.status == .errored }
  }

  /// The process exit code the run earns: 0 when it succeeded, 1 otherwise (an expectation or
  /// a regression failed). Usage and flow errors (exit code 2) never produce a report.
  public var exitCode: Int32 { succeeded ? 0 : 1 }
}

/// How a run was set up.
///
/// - Note: Isolation: a value; `Sendable`.
public struct RunConfiguration: Sendable, Equatable, Codable {
  /// Headless views attached at the largest point of the run.
  public var viewsAttached: UInt64
  /// `debug` or `release`.
  public var buildConfiguration: BuildConfiguration
  /// The Swift compiler version that built the simulator, such as `6.3`.
  public var swiftVersion: String
  /// When the run started. JSON keeps whole seconds (ISO 8601, UTC).
  public var date: Date

  /// Makes a configuration.
  public init(
    viewsAttached: UInt64, buildConfiguration: BuildConfiguration, swiftVersion: String,
    date: Date
  ) {
    self.viewsAttached = viewsAttached
    self.buildConfiguration = buildConfiguration
    self.swiftVersion = swiftVersion
    self.date = date
  }

  /// This build's configuration and compiler, dated now.
  public static func current(viewsAttached: UInt64, date: Date = Date()) -> RunConfiguration {
    RunConfiguration(
      viewsAttached: viewsAttached, buildConfiguration: .current,
      swiftVersion: SwiftToolchain.current.version, date: date)
  }
}

/// The build configuration that compiled the simulator.
public enum BuildConfiguration: String, Sendable, Equatable, Codable, CaseIterable {
  /// `swift build` (assertions on, optimizations off): timings mean little.
  case debug
  /// `swift build -c release`: the only build whose timings and allocations count.
  case release

  /// The configuration of this build.
  public static var current: BuildConfiguration {
    #if DEBUG
    return .debug
    #else
    return .release
    #endif
  }
}

/// One failure of a run.
///
/// - Note: Isolation: a value; `Sendable`.
public struct RunFailure: Sendable, Equatable, Codable {
  /// What kind of failure.
  public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
    /// An `expect` did not hold.
    case expectation
    /// A step could not run (a context error, a misuse).
    case error
    /// The performance gate found a regression.
    case regression
  }

  /// The kind.
  public var kind: Kind
  /// The step it belongs to (index from 1), if any.
  public var step: Int?
  /// The flow-file line, if any.
  public var line: Int?
  /// The flow-file column, if known.
  public var column: Int?
  /// What happened, where, and how to fix it.
  public var message: String
  /// For an expectation: both sides.
  public var expectation: ExpectationOutcome?
  /// For an error: its kind (`SimulationError.Kind`'s name: `command`, `launch`, `clock`,
  /// `option`, `flow`, `settle`, `other`).
  public var cause: String?

  /// Makes a failure.
  public init(
    kind: Kind, step: Int? = nil, line: Int? = nil, column: Int? = nil, message: String,
    expectation: ExpectationOutcome? = nil, cause: String? = nil
  ) {
    self.kind = kind
    self.step = step
    self.line = line
    self.column = column
    self.message = message
    self.expectation = expectation
    self.cause = cause
  }
}
