import Foundation

/// A kind of health measurement: its unit, its display name and the range of values the app
/// accepts for it.
///
/// ```swift
/// MetricType.heartRate.unit            // "bpm"
/// MetricType.heartRate.validRange      // 30...220
/// MetricType.allCases.count            // 14
/// ```
///
/// Raw values equal the case names (`"heartRate"`), so they are stable in the database, in
/// the backend's JSON and in simulator scripts.
///
/// - Complexity: every member is O(1).
/// - Note: Isolation: a `Sendable` value; any isolation.
/// - Note: Allocations: none (static strings).
public enum MetricType: String, CaseIterable, Codable, Sendable, Hashable {
  /// Beats per minute, measured at any moment.
  case heartRate
  /// Beats per minute at rest.
  case restingHeartRate
  /// Steps walked.
  case steps
  /// Oxygen saturation (SpO₂), in percent.
  case bloodOxygen
  /// Body temperature, in degrees Fahrenheit.
  case bodyTemperature
  /// Breaths per minute.
  case respiratoryRate
  /// Total sleep, in hours.
  case sleepDuration
  /// Deep sleep, in hours.
  case sleepDeep
  /// REM sleep, in hours.
  case sleepREM
  /// Light sleep, in hours.
  case sleepLight
  /// Time awake in bed, in hours.
  case sleepAwake
  /// Active energy burned, in kilocalories.
  case activeCalories
  /// Distance walked or run, in miles.
  case distance
  /// Heart rate variability (SDNN), in milliseconds.
  case heartRateVariability

  /// The unit values of this type are entered and stored in.
  public var unit: String {
    switch self {
    case .heartRate, .restingHeartRate: "bpm"
    case .steps: "steps"
    case .bloodOxygen: "%"
    case .bodyTemperature: "°F"
    case .respiratoryRate: "breaths/min"
    case .sleepDuration, .sleepDeep, .sleepREM, .sleepLight, .sleepAwake: "hours"
    case .activeCalories: "kcal"
    case .distance: "miles"
    case .heartRateVariability: "ms"
    }
  }

  /// The name a person reads ("Resting heart rate").
  public var displayName: String {
    switch self {
    case .heartRate: "Heart rate"
    case .restingHeartRate: "Resting heart rate"
    case .steps: "Steps"
    case .bloodOxygen: "Blood oxygen"
    case .bodyTemperature: "Body temperature"
    case .respiratoryRate: "Respiratory rate"
    case .sleepDuration: "Sleep duration"
    case .sleepDeep: "Deep sleep"
    case .sleepREM: "REM sleep"
    case .sleepLight: "Light sleep"
    case .sleepAwake: "Awake time"
    case .activeCalories: "Active calories"
    case .distance: "Distance"
    case .heartRateVariability: "Heart rate variability"
    }
  }

  /// The values the app accepts, bounds included (the CLARITY ranges; awake time, which
  /// CLARITY does not list, shares the sleep stages' 0–12 hours).
  public var validRange: ClosedRange<Double> {
    switch self {
    case .heartRate: 30...220
    case .restingHeartRate: 40...100
    case .steps: 0...100_000
    case .bloodOxygen: 70...100
    case .bodyTemperature: 95...105
    case .respiratoryRate: 8...30
    case .sleepDuration: 0...24
    case .sleepDeep, .sleepREM, .sleepLight, .sleepAwake: 0...12
    case .activeCalories: 0...5000
    case .distance: 0...100
    case .heartRateVariability: 0...200
    }
  }

  /// Whether the type is one of the sleep kinds.
  public var isSleep: Bool {
    switch self {
    case .sleepDuration, .sleepDeep, .sleepREM, .sleepLight, .sleepAwake: true
    default: false
    }
  }

  /// `value` as people write it: no trailing `.0` (`72`, `98.6`, `100000`).
  ///
  /// - Complexity: O(1).
  /// - Note: Allocations: the string.
  public static func format(_ value: Double) -> String {
    if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
      return String(Int64(value))
    }
    return String(value)
  }
}
