import Foundation
import HealthDomain
import WeftPersistence

extension DashboardClient {
  /// Follows the database: after every committed write to `health_metric` or `insight`
  /// (a form saving a metric, a sync, another device's data arriving), re-reads the
  /// selected range and replaces the data on screen if it changed — no refresh needed.
  ///
  /// Only data already on screen is replaced: before the first load and while a range
  /// change loads, observed values are ignored. Calling it again does nothing.
  ///
  /// - Complexity: one read transaction per burst of commits to the two tables (coalesced by
  ///   WeftPersistence); one commit when the data changed.
  /// - Note: Isolation: fetches run on a database connection; the result hops to the actor.
  /// - Note: Allocations: one task and one database observation.
  public func startObserving() {
    guard !isObserving else { return }
    let cell = self.cell
    let dependencies = self.dependencies
    let stream = dependencies.database.observe(tables: DashboardLocalStore.tables) { db in
      let range = cell.state.range
      let interval = range.interval(
        relativeTo: dependencies.now(), calendar: dependencies.calendar)
      return try DashboardLocalStore.fetch(
        db, range: range, interval: interval, insightLimit: dependencies.insightLimit)
    }
    setObservation(
      Task { [weak self] in
        do {
          for try await data in stream {
            guard let self else { return }
            await self.applyObserved(data)
          }
        } catch {
          await self?.observationFailed(error)
        }
      })
  }

  /// Re-reads the local data of the range on screen, without a sync: when it returns, every
  /// write committed before the call is shown. The observation does the same on its own a
  /// moment later; call this to reach that point deterministically (the simulator's settle
  /// step, tests). Does nothing before the first load or while a range change loads.
  ///
  /// - Complexity: one read transaction; one commit when the data changed.
  public func catchUp() async {
    let state = cell.state
    guard let shown = state.viewState.data, shown.range == state.range else { return }
    let range = state.range
    let interval = range.interval(relativeTo: dependencies.now(), calendar: dependencies.calendar)
    let limit = dependencies.insightLimit
    let data: DashboardData
    do {
      data = try await dependencies.database.read { db in
        try DashboardLocalStore.fetch(db, range: range, interval: interval, insightLimit: limit)
      }
    } catch {
      observationFailed(error)
      return
    }
    applyObserved(data)
  }

  /// Stops following the database, and returns once the observation task has ended (so
  /// nothing it delivered is still being applied).
  ///
  /// - Complexity: O(1) plus the wait for the task's current step.
  public func stopObserving() async {
    await takeObservation()?.value
  }

  /// Whether the database is followed.
  public var isObserving: Bool { hasObservation }

  func applyObserved(_ data: DashboardData) {
    let state = cell.state
    guard case .success(let shown) = state.viewState, shown.range == data.range, shown != data
    else { return }
    cell.update { state in
      state.viewState = .success(data)
      state.liveUpdateCount += 1
    }
  }

  func observationFailed(_ error: any Error) {
    cell.update { $0.lastSyncError = DashboardMessages.localLoadFailed(error) }
  }
}
