import Foundation
import WeftNetworking

extension HealthAPI {
  /// A metric as the backend sends and receives it.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct MetricDTO: Codable, Sendable, Equatable, Hashable {
    /// The metric's id.
    public var id: UUID
    /// What was measured.
    public var type: MetricType
    /// The value, in `unit`.
    public var value: Double
    /// The unit.
    public var unit: String
    /// When it was measured.
    public var date: Date
    /// Free text.
    public var notes: String?
    /// Where it came from.
    public var source: String
    /// When it was created.
    public var createdAt: Date

    /// Makes the DTO of `metric`.
    ///
    /// - Complexity: O(1).
    public init(_ metric: HealthMetric) {
      id = metric.id
      type = metric.type
      value = metric.value
      unit = metric.unit
      date = metric.date
      notes = metric.notes
      source = metric.source
      createdAt = metric.createdAt
    }

    /// The record to store locally.
    public var record: HealthMetric {
      HealthMetric(
        id: id, type: type, value: value, unit: unit, date: date, notes: notes, source: source,
        createdAt: createdAt)
    }
  }

  /// An insight as the backend sends it.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct InsightDTO: Codable, Sendable, Equatable, Hashable {
    /// The insight's id.
    public var id: UUID
    /// The headline.
    public var title: String
    /// The text.
    public var body: String
    /// When it was generated.
    public var date: Date
    /// How urgent it is.
    public var priority: Insight.Priority

    /// Makes the DTO of `insight`.
    ///
    /// - Complexity: O(1).
    public init(_ insight: Insight) {
      id = insight.id
      title = insight.title
      body = insight.body
      date = insight.date
      priority = insight.priority
    }

    /// The record to store locally.
    public var record: Insight {
      Insight(id: id, title: title, body: body, date: date, priority: priority)
    }
  }

  /// `GET /metrics?from&to`: the backend's metrics whose date is in `interval` (bounds
  /// included).
  ///
  /// - Complexity: O(1).
  public static func metrics(in interval: DateInterval) -> Endpoint<[MetricDTO]> {
    Endpoint(
      .get, Path.metrics,
      query: [
        QueryItem(Query.from, queryDate(interval.start)),
        QueryItem(Query.to, queryDate(interval.end)),
      ], name: "GET \(Path.metrics)")
  }

  /// `PUT /metrics/{id}`: creates or replaces the backend's copy of `metric`. The
  /// idempotency key (the outbox entry's) makes a replayed upsert apply once.
  ///
  /// - Complexity: O(1).
  public static func upsertMetric(
    _ metric: HealthMetric, idempotencyKey: String
  ) -> Endpoint<MetricDTO> {
    Endpoint(
      .put, Path.metric(id: metric.id), body: MetricDTO(metric), idempotencyKey: idempotencyKey,
      name: "PUT \(Path.metric)")
  }

  /// `DELETE /metrics/{id}`.
  ///
  /// - Complexity: O(1).
  public static func deleteMetric(id: UUID, idempotencyKey: String) -> Endpoint<NoContent> {
    Endpoint(
      .delete, Path.metric(id: id), idempotencyKey: idempotencyKey,
      name: "DELETE \(Path.metric)")
  }

  /// `GET /insights?limit`: the newest `limit` insights, newest first.
  ///
  /// - Complexity: O(1).
  public static func insights(limit: Int) -> Endpoint<[InsightDTO]> {
    Endpoint(
      .get, Path.insights, query: [QueryItem(Query.limit, String(limit))],
      name: "GET \(Path.insights)")
  }
}
