import Foundation
import HealthDomain
import WeftCore
import WeftNetworking
import WeftPersistence

/// The dashboard's store: loads the selected range from the local database first, then
/// syncs with the backend, then shows the local data again; and follows the database, so a
/// metric saved anywhere (the entry form) appears without a refresh.
///
/// ```swift
/// let dashboard = DashboardClient(dependencies: dependencies)
/// let token = dashboard.observeOnMainActor(\.viewState) { render($0.value) }
/// await dashboard.start()             // observe the database, then load
/// await dashboard.select(.month)      // reload for another range
/// await dashboard.refresh()           // local → sync → local again
/// ```
///
/// The state (`DashboardState`) lives in `cell`, a WeftCore `StateCell`: read it
/// synchronously with `state`, observe any part of it through the fan-out.
///
/// > Important: A sync failure after the local load keeps the data on screen and sets
/// > `lastSyncError`; only a failing local load shows `.error`. A load started while another
/// > runs supersedes it: the older one stops committing at its next step.
///
/// # Performance
/// A load costs two local read transactions (metrics in range through the `date` index, the
/// latest insights), two backend calls and one write transaction; each step is one commit.
/// A live update costs one read transaction per burst of commits to `health_metric` or
/// `insight` (WeftPersistence coalesces them) and one commit when the data changed.
///
/// - Note: Isolation: an actor; reads of `state` and subscriptions are `nonisolated`.
/// - Note: Allocations: per load, the fetched records; per live update, one fetch.
public actor DashboardClient: Client {
  /// The dashboard's state.
  public nonisolated let cell: StateCell<DashboardState>
  /// What the dashboard was built with.
  public nonisolated let dependencies: DashboardDependencies

  private var generation = 0
  private var observation: Task<Void, Never>?

  /// Makes an idle dashboard on the week range.
  ///
  /// - Parameters:
  ///   - dependencies: the database, HTTP client, clock and "now" it works with.
  ///   - range: the range it starts on.
  ///   - monitor: where its cell is counted and whose queue delivers its MainActor changes
  ///     (the process-wide one by default).
  /// - Complexity: O(1).
  /// - Note: Isolation: any (an actor's initializer).
  public init(
    dependencies: DashboardDependencies, range: DateRange = .week,
    monitor: PerformanceMonitor = .shared
  ) {
    self.dependencies = dependencies
    self.cell = StateCell(DashboardState(range: range), name: "DashboardClient", monitor: monitor)
  }

  deinit { observation?.cancel() }

  // MARK: Loading

  /// Observes the database (see `startObserving()`) and loads.
  ///
  /// - Complexity: as `load()`.
  public func start() async {
    startObserving()
    await load()
  }

  /// Loads the selected range: local data first (`.loading` only when nothing of this range
  /// is on screen yet), then a sync with the backend (remote metrics in range and the latest
  /// insights, saved locally), then the local data again.
  ///
  /// - Complexity: two local reads, two requests, one write; one commit per step.
  /// - Note: Isolation: the actor; the database and the network run on their own.
  public func load() async {
    generation += 1
    let current = generation
    let range = cell.state.range
    let interval = range.interval(
      relativeTo: dependencies.now(), calendar: dependencies.calendar)
    cell.update { state in
      state.loadCount += 1
      if state.viewState.data?.range != range { state.viewState = .loading }
    }
    guard await showLocal(range: range, interval: interval, generation: current) else { return }

    cell.update { $0.isSyncing = true }
    let clock = dependencies.clock
    let started = clock.now
    do {
      try await sync(interval: interval)
    } catch {
      guard current == generation else { return }
      cell.update { state in
        state.isSyncing = false
        state.lastSyncError = DashboardMessages.syncFailed(error)
      }
      return
    }
    guard current == generation else { return }
    let ended = clock.now
    cell.update { state in
      state.isSyncing = false
      state.lastSyncError = nil
      state.lastSyncedAt = dependencies.now()
      state.lastSyncDuration = elapsed(from: started, to: ended)
    }
    _ = await showLocal(range: range, interval: interval, generation: current)
  }

  /// Runs the load again for the selected range.
  ///
  /// - Complexity: as `load()`.
  public func refresh() async {
    await load()
  }

  /// Selects `range` and loads it.
  ///
  /// - Complexity: as `load()`.
  public func select(_ range: DateRange) async {
    cell.update { $0.range = range }
    await load()
  }

  /// Forgets everything shown (after a logout): back to idle, loads in flight stop
  /// committing. The range is kept.
  ///
  /// - Complexity: O(1), one commit.
  public func clear() {
    generation += 1
    cell.update { state in state = DashboardState(range: state.range) }
  }

  func setObservation(_ task: Task<Void, Never>?) {
    observation?.cancel()
    observation = task
  }

  var hasObservation: Bool { observation != nil }

  /// Cancels the observation task and hands it over (to await its end).
  func takeObservation() -> Task<Void, Never>? {
    defer { observation = nil }
    observation?.cancel()
    return observation
  }

  /// Reads the local data and shows it; `false` when the load was superseded or failed.
  private func showLocal(
    range: DateRange, interval: DateInterval, generation current: Int
  ) async
    -> Bool
  {
    let limit = dependencies.insightLimit
    do {
      let data = try await dependencies.database.read { db in
        try DashboardLocalStore.fetch(db, range: range, interval: interval, insightLimit: limit)
      }
      guard current == generation else { return false }
      cell.update { $0.viewState = .success(data) }
      return true
    } catch {
      guard current == generation else { return false }
      cell.update { $0.viewState = .error(DashboardMessages.localLoadFailed(error)) }
      return false
    }
  }

  /// Fetches the remote metrics in `interval` and the latest insights, and saves them in one
  /// write transaction.
  private func sync(interval: DateInterval) async throws {
    let client = dependencies.client
    let metrics = try await client.send(HealthAPI.metrics(in: interval))
    let insights = try await client.send(HealthAPI.insights(limit: dependencies.insightLimit))
    let pending = Set(
      try await dependencies.database.outbox.pending()
        .filter { $0.modelType == HealthMetric.tableName }.map(\.recordID))
    try await dependencies.database.write { tx in
      try DashboardLocalStore.store(tx, metrics: metrics, insights: insights, pending: pending)
    }
  }
}

/// The duration between two instants of the same clock, read through existentials.
private func elapsed<I: InstantProtocol>(
  from start: I, to end: any InstantProtocol<Duration>
) -> Duration? where I.Duration == Duration {
  (end as? I).map { start.duration(to: $0) }
}
