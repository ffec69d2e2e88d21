import Foundation
import HealthDomain
import WeftNetworking
import WeftPersistence

/// The dashboard's reads and writes on the local database, as pure functions of a read or
/// write transaction.
///
/// - Note: Isolation: runs inside the database's connections.
enum DashboardLocalStore {
  /// The tables the dashboard's fetch reads (observed for live updates).
  static let tables: Set<String> = [HealthMetric.tableName, Insight.tableName]

  /// The metrics in `interval` (newest first) and the latest `limit` insights, in one read
  /// transaction.
  ///
  /// - Complexity: O(log n + k) with the `date` index, k = metrics in range; plus
  ///   O(log i + limit) for the insights.
  static func fetch(
    _ db: ReadContext, range: DateRange, interval: DateInterval, insightLimit: Int
  ) throws -> DashboardData {
    let metrics = try db.fetchAll(
      HealthMetric.self,
      where: Field("date") >= interval.start && Field("date") <= interval.end,
      sortBy: [.descending("date"), .ascending("id")])
    let insights = try db.fetchAll(
      Insight.self, sortBy: [.descending("date"), .ascending("id")], limit: insightLimit)
    return DashboardData(range: range, interval: interval, metrics: metrics, insights: insights)
  }

  /// Saves what the backend sent, skipping metrics with a change still queued in the outbox
  /// (the local copy is newer; the outbox sends it, and the next sync brings it back).
  ///
  /// - Complexity: O(r + i) saves, r = remote metrics, i = insights.
  static func store(
    _ tx: DatabaseTransaction, metrics: [HealthAPI.MetricDTO], insights: [HealthAPI.InsightDTO],
    pending: Set<String>
  ) throws {
    for metric in metrics where !pending.contains(metric.id.uuidString) {
      try tx.save(metric.record)
    }
    for insight in insights { try tx.save(insight.record) }
  }
}
