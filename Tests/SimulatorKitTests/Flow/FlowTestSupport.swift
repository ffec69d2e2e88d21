import Foundation
import Testing

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
    "realtime.state", "realtime.received", "realtime.lastInsight",
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

  /// Parses with the test paths.
  static func parse(
    _ source: String, options: Flow.ParseOptions = .init()
  ) throws(FlowError)
    -> Flow
  {
    try Flow.parse(source: source, file: file, knownPaths: paths, options: options)
  }

  /// The step kinds of a source that must parse.
  static func kinds(_ source: String, options: Flow.ParseOptions = .init()) throws -> [StepKind] {
    try parse(source, options: options).steps.map(\.kind)
  }

  /// The error a source must fail with.
  static func error(_ source: String, options: Flow.ParseOptions = .init()) -> FlowError? {
    do {
      _ = try parse(source, options: options)
      return nil
    } catch {
      return error
    }
  }

  /// The repository root, found from this file's path.
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
}
