import AppFeature
import AuthFeature
import DashboardFeature
import FormsFeature
import HealthDomain
import WeftCore
import WeftNetworking
import WeftSimulation

extension AppLaunch {
  /// Every observable value of this launch, by dotted path: what flows and tests read and
  /// wait for (live or simulated).
  ///
  /// - Complexity: O(p) to build, p = paths (about 60); build once per launch.
  /// - Note: Isolation: MainActor.
  public func makePaths() -> [String: ObservablePath] {
    var paths: [ObservablePath] = []
    paths += authPaths()
    paths += appPaths()
    paths += syncPaths()
    paths += dashboardPaths()
    paths += formPaths()
    paths += gradePaths()
    paths.append(
      ObservablePath("network.online", cell: capabilities.cell) {
        .bool($0.isAvailable(NetworkCapability.name))
      })
    paths += [
      ObservablePath("realtime.state", cell: realtime.cell, values: RealtimeState.names) {
        .string($0.name)
      },
      ObservablePath("realtime.received", cell: realtime.cell) { .int($0.receivedInsights) },
      ObservablePath("realtime.lastInsight", cell: realtime.cell) {
        .optional($0.lastInsightTitle)
      },
    ]
    return Dictionary(paths.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  private func authPaths() -> [ObservablePath] {
    [
      ObservablePath("auth.state", cell: auth.cell, values: AuthState.names) { .string($0.name) },
      ObservablePath("auth.isAuthenticated", cell: auth.cell) { .bool($0.isAuthenticated) },
      ObservablePath("auth.error", cell: auth.cell) { .optional($0.error?.name) },
      ObservablePath("auth.user", cell: auth.cell) { .optional($0.session?.email) },
      ObservablePath("login.email", cell: login.cell) { .string($0.email) },
      ObservablePath("login.password", cell: login.cell) { .string($0.password) }.secret(),
      ObservablePath("login.canSubmit", cell: login.cell) { .bool($0.canSubmit) },
      ObservablePath("login.isLoading", cell: login.cell) { .bool($0.isLoading) },
      ObservablePath("login.error", cell: login.cell) { .optional($0.errorMessage) },
    ]
  }

  private func appPaths() -> [ObservablePath] {
    [
      ObservablePath("app.tab", cell: appState.cell, values: AppTab.allCases.map(\.rawValue)) {
        .string($0.selectedTab.rawValue)
      },
      ObservablePath("app.sheet", cell: appState.cell) { .optional($0.presentedSheet?.name) },
      ObservablePath("app.alert", cell: appState.cell) { .optional($0.presentedAlert?.message) },
      ObservablePath("app.navigation.depth", cell: appState.cell) {
        .int($0.navigationPath.count)
      },
      ObservablePath("app.navigation.top", cell: appState.cell) {
        .optional($0.navigationPath.last)
      },
      ObservablePath("app.loading", cell: appState.cell) { .bool($0.isLoading) },
      ObservablePath("app.error", cell: appState.cell) { .optional($0.globalError) },
      ObservablePath("app.user", cell: appState.cell) { .optional($0.currentUser?.email) },
      ObservablePath("app.isAuthenticated", cell: appState.cell) { .bool($0.isAuthenticated) },
      ObservablePath("app.flags.offlineMode", cell: appState.cell) {
        .bool($0.featureFlags.isOfflineMode)
      },
      ObservablePath("sync.status", cell: appState.cell, values: SyncStatus.names) {
        .string($0.syncStatus.name)
      },
      ObservablePath("sync.progress", cell: appState.cell) {
        guard case .syncing(let progress) = $0.syncStatus else { return .none }
        return .double(progress)
      },
    ]
  }

  private func syncPaths() -> [ObservablePath] {
    [
      ObservablePath("sync.pending", cell: outbox.cell) { .int($0.pending) },
      ObservablePath("sync.delivered", cell: outbox.cell) { .int($0.delivered) },
      ObservablePath("sync.passes", cell: outbox.cell) { .int($0.passes) },
      ObservablePath("sync.lastError", cell: outbox.cell) { .optional($0.lastError) },
      ObservablePath("outbox.count", cell: outbox.cell) { .int($0.total) },
      ObservablePath("outbox.deadLetters", cell: outbox.cell) { .int($0.deadLetters) },
    ]
  }

  private func dashboardPaths() -> [ObservablePath] {
    let summaryText = SummaryText()
    return [
      ObservablePath(
        "dashboard.state", cell: dashboard.cell, values: ViewState<DashboardData>.caseNames
      ) { .string($0.viewState.caseName) },
      ObservablePath("dashboard.range", cell: dashboard.cell, values: DateRange.names) {
        .string($0.range.name)
      },
      ObservablePath("dashboard.summary", cell: dashboard.cell) {
        .optional($0.summary.map(summaryText.text))
      },
      ObservablePath("dashboard.summary.averageHeartRate", cell: dashboard.cell) {
        .optional($0.summary?.averageHeartRate)
      },
      ObservablePath("dashboard.summary.totalSteps", cell: dashboard.cell) {
        .optional($0.summary?.totalSteps)
      },
      ObservablePath("dashboard.summary.sleepDuration", cell: dashboard.cell) {
        .optional($0.summary?.sleepDuration)
      },
      ObservablePath("dashboard.insights.count", cell: dashboard.cell) {
        .int($0.latestInsights.count)
      },
      ObservablePath("dashboard.metrics.count", cell: dashboard.cell) { .int($0.metrics.count) },
      ObservablePath("dashboard.isSyncing", cell: dashboard.cell) { .bool($0.isSyncing) },
      ObservablePath("dashboard.error", cell: dashboard.cell) { .optional($0.errorMessage) },
    ]
  }

  private func formPaths() -> [ObservablePath] {
    [
      ObservablePath(
        "form.metric", cell: form.cell, values: MetricType.allCases.map(\.rawValue)
      ) { .string($0.fields.metricType.rawValue) },
      ObservablePath("form.value", cell: form.cell) { .string($0.fields.valueText) },
      ObservablePath("form.notes", cell: form.cell) { .string($0.fields.notes) },
      ObservablePath("form.unit", cell: form.cell) { .string($0.fields.unit) },
      ObservablePath("form.error", cell: form.cell) { .optional($0.validationMessage) },
      ObservablePath(
        "form.result", cell: form.cell, values: HealthFormSubmitResult.caseNames
      ) { .string($0.result.caseName) },
      ObservablePath("form.status", cell: form.cell) { .string($0.status) },
      ObservablePath("form.canSubmit", cell: form.cell) { .bool($0.canSubmit) },
      ObservablePath("form.submitted", cell: form.cell) { .int($0.submittedCount) },
    ]
  }

  private func gradePaths() -> [ObservablePath] {
    var paths = [
      ObservablePath("grades.total", cell: grades.cell) { .double($0.weightSum) },
      ObservablePath("grades.basis", cell: grades.cell) { .string($0.basis.rawValue) },
      ObservablePath("grades.overLimit", cell: grades.cell) { .bool($0.exceedsLimit) },
      ObservablePath("grades.error", cell: grades.cell) { .optional($0.lastError) },
      ObservablePath("grades.checks", cell: grades.cell) { .int($0.checks) },
    ]
    for category in grades.state.categories {
      let name = category.name
      let prefix = "grades." + name.lowercased()
      paths += [
        ObservablePath(prefix + ".total", cell: grades.cell) {
          .optional($0.category(name)?.total)
        },
        ObservablePath(prefix + ".each", cell: grades.cell) { .optional($0.category(name)?.each) },
        ObservablePath(prefix + ".count", cell: grades.cell) {
          $0.category(name).map { .int($0.numberOfAssessments) } ?? .none
        },
      ]
    }
    return paths
  }

  /// The text `dashboard.summary` shows: the average heart rate (or `none`), the total steps
  /// and the sleep duration.
  ///
  /// - Complexity: O(1).
  nonisolated static func describe(_ summary: DashboardSummary) -> String {
    let heart = summary.averageHeartRate.map { ObservedValue.double($0).description } ?? "none"
    return "heartRate=\(heart) steps=\(ObservedValue.double(summary.totalSteps)) "
      + "sleep=\(ObservedValue.double(summary.sleepDuration))"
  }
}

/// The text of `dashboard.summary`, formatted once per distinct summary.
///
/// The path's projection runs on every commit of the dashboard (the fan-out compares its
/// value) and once more on the MainActor when the value changed (the delivery re-projects
/// the latest snapshot), and `read()` runs it too: formatting three numbers each time cost
/// ≈ 1–2 µs per projection, twice inside every commit → render latency. The last summary
/// and its text are kept, so a projection of an unchanged summary is a comparison.
///
/// - Complexity: O(1): one uncontended lock and a comparison of four numbers; formatting
///   when the summary differs from the last one.
/// - Note: Isolation: thread-safe (the fan-out runs on the dashboard's actor, the delivery
///   on the MainActor).
final class SummaryText: Sendable {
  private let last = Locked<(summary: DashboardSummary, text: String)?>(nil)

  /// `AppLaunch.describe(summary)`, from the cache when `summary` is the last one.
  func text(_ summary: DashboardSummary) -> String {
    if let cached = last.withLock({ $0 }), cached.summary == summary { return cached.text }
    let text = AppLaunch.describe(summary)
    last.withLock { $0 = (summary, text) }
    return text
  }
}
