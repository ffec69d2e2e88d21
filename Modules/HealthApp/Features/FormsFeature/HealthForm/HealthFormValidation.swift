import Foundation
import HealthDomain

/// Why the health-data form cannot be submitted. The `description` is the text the form
/// shows; tests pin it.
///
/// ```swift
/// HealthFormValidationError.notANumber.description
/// // "Please enter a valid number"
/// HealthFormValidationError.outOfRange(.heartRate).description
/// // "Heart rate must be between 30 and 220 bpm"
/// ```
///
/// - Note: Isolation: a `Sendable` value.
public enum HealthFormValidationError: Error, Sendable, Equatable, Hashable,
  CustomStringConvertible
{
  /// The value text is not a finite number.
  case notANumber
  /// The date is after "now".
  case futureDate
  /// The value is outside the type's valid range.
  case outOfRange(MetricType)

  public var description: String {
    switch self {
    case .notANumber:
      "Please enter a valid number"
    case .futureDate:
      "Date cannot be in the future"
    case .outOfRange(let type):
      "\(type.displayName) must be between \(MetricType.format(type.validRange.lowerBound)) "
        + "and \(MetricType.format(type.validRange.upperBound)) \(type.unit)"
    }
  }
}

/// The form's fields, as the person typed them.
///
/// - Note: Isolation: a `Sendable` value.
public struct HealthFormFields: Sendable, Equatable, Hashable {
  /// The kind of measurement.
  public var metricType: MetricType
  /// The value, as typed.
  public var valueText: String
  /// When it was measured.
  public var date: Date
  /// Free text.
  public var notes: String

  /// Makes the fields.
  ///
  /// - Complexity: O(1).
  public init(
    metricType: MetricType = .heartRate, valueText: String = "", date: Date, notes: String = ""
  ) {
    self.metricType = metricType
    self.valueText = valueText
    self.date = date
    self.notes = notes
  }

  /// The unit of the selected type.
  public var unit: String { metricType.unit }
  /// The valid range of the selected type.
  public var validRange: ClosedRange<Double> { metricType.validRange }

  /// The value as a number: the trimmed text parsed as a finite `Double`.
  public var value: Double? {
    let text = valueText.trimmingCharacters(in: .whitespaces)
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// Every reason the fields cannot be submitted at `now`, in the order shown: not a
  /// number (then nothing else is checked), future date, out of range. Empty when valid.
  ///
  /// - Complexity: O(t), t = value text length.
  public func validate(now: Date) -> [HealthFormValidationError] {
    guard let value else { return [.notANumber] }
    var errors: [HealthFormValidationError] = []
    if date > now { errors.append(.futureDate) }
    if !metricType.validRange.contains(value) { errors.append(.outOfRange(metricType)) }
    return errors
  }
}
