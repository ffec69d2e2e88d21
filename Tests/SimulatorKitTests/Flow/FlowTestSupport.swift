import Foundation
import HealthSimulator
import Testing

@testable import SimulatorFlow
@testable import SimulatorKit

/// Helpers shared by the flow-language suites.
enum FlowTesting {
  /// The file name used in pinned diagnostics.
  static let file = "Flows/test.flow"

  /// The observable paths the suites validate against: the app's, plus a few more that the
  /// table-driven tests use (the runner passes its own list).
  static let paths: Set<String> = appPaths.union(extraPaths)

  static let extraPaths: Set<String> = [
    "auth.state", "auth.error", "login.email", "login.password", "login.canSubmit",
    "login.errorMessage", "app.tab", "app.sheet", "app.alert", "app.isAuthenticated",
    "app.user", "app.user.email", "app.navigationPath", "app.syncStatus",
    "app.features.offlineMode",
    "dashboard.state", "dashboard.range", "dashboard.errorMessage", "dashboard.insights",
    "dashboard.insights.count", "dashboard.summary.averageHeartRate",
    "dashboard.summary.totalSteps", "dashboard.summary.sleepDuration", "form.metric",
    "form.value", "form.date", "form.notes", "form.error", "form.result", "form.canSubmit",
    "grades.assignments.total", "grades.assignments.each", "grades.assignments.count",
    "grades.exams.total", "grades.exams.each", "grades.exams.count", "grades.basis",
    "grades.overLimit", "grades.error", "context.result", "context.error", "outbox.count",
    "sync.state", "sync.completed", "metrics.count", "network.requests", "network.failures",
    "realtime.state", "views.attached", "views.rendered", "views.skipped", "clock.now",
  ]

  /// The paths the app exposes to the runner (a snapshot of AppFeature's `makePaths()`):
  /// the bundled flows must validate against exactly these.
  static let appPaths: Set<String> = [
    "auth.state", "auth.isAuthenticated", "auth.error", "auth.user", "login.email",
    "login.password", "login.canSubmit", "login.isLoading", "login.error", "app.tab",
    "app.sheet", "app.alert", "app.navigation.depth", "app.navigation.top", "app.loading",
    "app.error", "app.user", "app.isAuthenticated", "app.flags.offlineMode", "sync.status",
    "sync.progress", "sync.pending", "sync.delivered", "sync.passes", "sync.lastError",
    "outbox.count", "outbox.deadLetters", "dashboard.state", "dashboard.range",
    "dashboard.summary", "dashboard.summary.averageHeartRate", "dashboard.summary.totalSteps",
    "dashboard.summary.sleepDuration", "dashboard.insights.count", "dashboard.metrics.count",
    "dashboard.isSyncing", "dashboard.error", "form.metric", "form.value", "form.notes",
    "form.unit", "form.error", "form.result", "form.status", "form.canSubmit", "form.submitted",
    "grades.total", "grades.basis", "grades.overLimit", "grades.error", "grades.checks",
    "grades.assignments.total", "grades.assignments.each", "grades.assignments.count",
    "grades.exams.total", "grades.exams.each", "grades.exams.count", "network.online",
    "realtime.state", "realtime.received", "realtime.lastInsight", "backend.records",
    "backend.duplicates", "backend.writes", "backend.replays",
  ]

  /// 2026-01-15 09:00 UTC, the default reference instant.
  static let now = Flow.defaultReferenceDate

  /// Midnight UTC of a calendar day, plus optional hours and minutes.
  static func date(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0
  )
    -> Date
  {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    return calendar.date(
      from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))
      ?? .distantPast
  }

  /// The health app's plug-in, made from its public commands (`HealthSimulation.plugin` is
  /// MainActor-isolated, and most suites here are not; a test pins the two catalogs equal).
  static let plugin = SimulatorPlugin(name: "health", commands: HealthCommands.all) { launch in
    try await HealthSimulation.make(seed: launch.seed)
  }

  /// The health app's flow language: what the flow-syntax suites parse against.
  static let commands = plugin.catalog

  /// The words `form.set metric=` takes, from the command's declaration.
  static let metricWords: [String] = {
    let command = HealthCommands.all.first { $0.command.name == "form.set" }
    let metric = command?.arguments.first { $0.name == "metric" }
    if case .word(let words) = metric?.kind { return words }
    return []
  }()

  /// Parse options with the health app's commands.
  static func options(
    now: Date = Flow.defaultReferenceDate, maxSteps: Int = 1_000_000, maxNesting: Int = 32
  ) -> Flow.ParseOptions {
    Flow.ParseOptions(now: now, maxSteps: maxSteps, maxNesting: maxNesting, commands: commands)
  }

  /// Parses with the test paths.
  static func parse(
    _ source: String, options: Flow.ParseOptions = FlowTesting.options()
  ) throws(FlowError)
    -> Flow
  {
    try Flow.parse(source: source, file: file, knownPaths: paths, options: options)
  }

  /// The step kinds of a source that must parse.
  static func kinds(
    _ source: String, options: Flow.ParseOptions = FlowTesting.options()
  ) throws -> [StepKind] {
    try parse(source, options: options).steps.map(\.kind)
  }

  /// The error a source must fail with.
  static func error(
    _ source: String, options: Flow.ParseOptions = FlowTesting.options()
  ) -> FlowError? {
    do {
      _ = try parse(source, options: options)
      return nil
    } catch {
      return error
    }
  }

  /// A plug-in step, for expected kinds: `app("login", ["email": .text("a")])`.
  static func app(
    _ command: String, _ arguments: KeyValuePairs<String, ArgumentValue> = [:]
  ) -> StepKind {
    .app(AppStep(command, CommandArguments(arguments)))
  }

  /// `login email=... password=...`.
  static func login(_ email: String, _ password: String) -> StepKind {
    app("login", ["email": .text(email), "password": .text(password)])
  }

  /// `form.set metric=steps value=...`.
  static func steps(_ value: String) -> StepKind {
    app("form.set", ["metric": .word("steps"), "value": .text(value)])
  }

  static let logout = app("logout")
  static let submitLogin = app("login.submit")
  static let resetForm = app("form.reset")
  static let submitForm = app("form.submit")

  /// The repository root, found from this file's path.
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
}
