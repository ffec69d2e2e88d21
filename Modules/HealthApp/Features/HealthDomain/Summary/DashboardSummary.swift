/// The numbers at the top of the dashboard, computed from the metrics of the selected range
/// by a pure function.
///
/// ```swift
/// let summary = DashboardSummary(metrics: metricsInRange)
/// summary.averageHeartRate   // mean of the heart-rate samples, nil without any
/// summary.totalSteps         // sum of the step counts
/// summary.sleepDuration      // sum of the sleep-duration entries, in hours
/// ```
///
/// Only `heartRate` counts toward the average (not `restingHeartRate`), and only
/// `sleepDuration` toward sleep (the stages are parts of it, so adding them would count
/// the night twice).
///
/// - Complexity: O(n), n = metrics, one pass.
/// - Note: Isolation: a `Sendable` value; any isolation.
/// - Note: Allocations: none.
public struct DashboardSummary: Sendable, Equatable, Hashable, Codable {
  /// Mean of the `heartRate` values in bpm; `nil` when there are none.
  public var averageHeartRate: Double?
  /// Sum of the `steps` values.
  public var totalSteps: Double
  /// Sum of the `sleepDuration` values, in hours.
  public var sleepDuration: Double
  /// How many heart-rate samples the average is over.
  public var heartRateSamples: Int

  /// A summary with the given numbers.
  ///
  /// - Complexity: O(1).
  public init(
    averageHeartRate: Double?, totalSteps: Double, sleepDuration: Double, heartRateSamples: Int
  ) {
    self.averageHeartRate = averageHeartRate
    self.totalSteps = totalSteps
    self.sleepDuration = sleepDuration
    self.heartRateSamples = heartRateSamples
  }

  /// The summary of no metrics: no average, zero steps, zero sleep.
  public static let empty = DashboardSummary(
    averageHeartRate: nil, totalSteps: 0, sleepDuration: 0, heartRateSamples: 0)

  /// Computes the summary of `metrics` (already filtered to the range you want).
  ///
  /// - Complexity: O(n), n = metrics.
  public init(metrics: some Sequence<HealthMetric>) {
    var heartRateSum = 0.0
    var heartRateCount = 0
    var steps = 0.0
    var sleep = 0.0
    for metric in metrics {
      switch metric.type {
      case .heartRate:
        heartRateSum += metric.value
        heartRateCount += 1
      case .steps: steps += metric.value
      case .sleepDuration: sleep += metric.value
      default: break
      }
    }
    self.init(
      averageHeartRate: heartRateCount == 0 ? nil : heartRateSum / Double(heartRateCount),
      totalSteps: steps, sleepDuration: sleep, heartRateSamples: heartRateCount)
  }
}
