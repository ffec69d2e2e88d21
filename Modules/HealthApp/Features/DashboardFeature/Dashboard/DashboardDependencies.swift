import Foundation
import HealthDomain
import WeftNetworking
import WeftPersistence

/// Everything the dashboard needs from outside, injected by the composition root. The
/// dashboard never knows whether they are live (an on-disk database, URLSession, the wall
/// clock) or simulated (in memory, a simulated backend, a test clock).
///
/// ```swift
/// let dashboard = DashboardClient(dependencies: DashboardDependencies(
///   database: database, client: httpClient, clock: clock, now: { referenceDate }))
/// ```
///
/// - Note: Isolation: a `Sendable` value.
public struct DashboardDependencies: Sendable {
  /// The local store (opened with `HealthSchema.migrations`).
  public var database: Database
  /// The backend (`HealthAPI`), signed by the composition root's middleware.
  public var client: HTTPClient
  /// The clock sync durations are measured on.
  public var clock: any Clock<Duration>
  /// "Now" for resolving ranges and stamping syncs.
  public var now: @Sendable () -> Date
  /// The calendar ranges count days in.
  public var calendar: Calendar
  /// How many insights the dashboard shows and asks the backend for.
  public var insightLimit: Int

  /// Bundles the dependencies.
  ///
  /// - Complexity: O(1).
  public init(
    database: Database, client: HTTPClient, clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date, calendar: Calendar = HealthCalendar.utc,
    insightLimit: Int = 5
  ) {
    self.database = database
    self.client = client
    self.clock = clock
    self.now = now
    self.calendar = calendar
    self.insightLimit = insightLimit
  }
}
