import Foundation
import HealthDomain

/// What the dashboard shows for one range: the metrics in it, the latest insights and the
/// summary of the metrics.
///
/// - Note: Isolation: a `Sendable` value.
/// - Note: Allocations: the two arrays.
public struct DashboardData: Sendable, Equatable, Hashable {
  /// The range this data was fetched for.
  public var range: DateRange
  /// The interval the range resolved to at fetch time.
  public var interval: DateInterval
  /// The metrics whose date is in `interval`, newest first.
  public var metrics: [HealthMetric]
  /// The latest insights, newest first (at most the dashboard's insight limit).
  public var insights: [Insight]
  /// `DashboardSummary(metrics: metrics)`.
  public var summary: DashboardSummary

  /// Makes the data; the summary is computed from `metrics`.
  ///
  /// - Complexity: O(m), m = metrics.
  public init(
    range: DateRange, interval: DateInterval, metrics: [HealthMetric], insights: [Insight]
  ) {
    self.range = range
    self.interval = interval
    self.metrics = metrics
    self.insights = insights
    self.summary = DashboardSummary(metrics: metrics)
  }
}

/// The dashboard's observable state, held by `DashboardClient.cell`.
///
/// Observe the parts a view needs, for example `\.viewState`, `\.summary`,
/// `\.latestInsights`, `\.lastSyncError` or `\.range`: a commit that changes none of them
/// costs that view nothing.
///
/// - Note: Isolation: a `Sendable` value.
public struct DashboardState: Sendable, Equatable {
  /// The selected range.
  public var range: DateRange
  /// Idle, loading, the data, or the local load's error.
  public var viewState: ViewState<DashboardData>
  /// Whether a sync with the backend is running.
  public var isSyncing: Bool
  /// The last sync's failure, as a sentence; `nil` after a successful sync. The data stays
  /// on screen when a sync fails.
  public var lastSyncError: String?
  /// When the last successful sync ended (the injected reference date).
  public var lastSyncedAt: Date?
  /// How long the last successful sync took, on the injected clock.
  public var lastSyncDuration: Duration?
  /// How many loads (first load, refreshes, range changes) started.
  public var loadCount: Int
  /// How many times the database observation replaced the data on screen.
  public var liveUpdateCount: Int

  /// The state before the first load: the week range, idle.
  ///
  /// - Complexity: O(1).
  public init(range: DateRange = .week) {
    self.range = range
    self.viewState = .idle
    self.isSyncing = false
    self.lastSyncError = nil
    self.lastSyncedAt = nil
    self.lastSyncDuration = nil
    self.loadCount = 0
    self.liveUpdateCount = 0
  }

  /// The summary on screen, if data is shown.
  public var summary: DashboardSummary? { viewState.data?.summary }
  /// The insights on screen (empty without data).
  public var latestInsights: [Insight] { viewState.data?.insights ?? [] }
  /// The message to show: the local load's error, else the last sync's failure (shown over
  /// the data, which stays on screen), else `nil`.
  public var errorMessage: String? { viewState.errorMessage ?? lastSyncError }
  /// The metrics on screen (empty without data).
  public var metrics: [HealthMetric] { viewState.data?.metrics ?? [] }
}
