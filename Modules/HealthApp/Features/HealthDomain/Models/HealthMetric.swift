import Foundation
import WeftPersistence

/// One health measurement, stored as a row of `health_metric` and synced to the backend.
///
/// ```swift
/// let metric = HealthMetric(
///   id: UUID(), type: .heartRate, value: 72, date: now, notes: nil,
///   source: HealthMetric.manualEntry, createdAt: now)
/// try await database.write { tx in try tx.saveForSync(metric, operation: .create) }
/// ```
///
/// `unit` is the type's unit when the metric is made through the convenience initializer; it
/// is stored so that a metric keeps the unit it was measured in.
///
/// - Complexity: O(1) to make and copy.
/// - Note: Isolation: a `Sendable` value; any isolation.
/// - Note: Allocations: its strings.
public struct HealthMetric: PersistableRecord, Equatable, Hashable {
  /// `"health_metric"`.
  public static let tableName = "health_metric"
  /// The `source` of metrics a person typed into the form.
  public static let manualEntry = "Manual Entry"

  /// Unique across devices and the backend.
  public var id: UUID
  /// What was measured.
  public var type: MetricType
  /// The measured value, in `unit`.
  public var value: Double
  /// The unit of `value` (`type.unit` by default).
  public var unit: String
  /// When it was measured.
  public var date: Date
  /// Free text the person added.
  public var notes: String?
  /// Where it came from (`manualEntry`, a device name, the backend).
  public var source: String
  /// When the record was created on this device or on the backend.
  public var createdAt: Date

  /// Makes a metric; `unit` defaults to the type's unit.
  ///
  /// - Complexity: O(1).
  public init(
    id: UUID, type: MetricType, value: Double, unit: String? = nil, date: Date,
    notes: String? = nil, source: String = HealthMetric.manualEntry, createdAt: Date
  ) {
    self.id = id
    self.type = type
    self.value = value
    self.unit = unit ?? type.unit
    self.date = date
    self.notes = notes
    self.source = source
    self.createdAt = createdAt
  }
}
