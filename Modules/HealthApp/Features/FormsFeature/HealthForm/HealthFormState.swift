import Foundation
import HealthDomain

/// How the last submit ended.
///
/// - Note: Isolation: a `Sendable` value.
public enum HealthFormSubmitResult: Sendable, Equatable, Hashable {
  /// Nothing submitted since the last edit.
  case none
  /// Saved and queued for sync; the form was reset.
  case success(HealthMetric)
  /// Not saved; the fields are as the person left them.
  case failure(String)

  /// Every case's `caseName`, in declaration order.
  public static let caseNames = ["none", "success", "failure"]

  /// `none`, `success` or `failure`, for reports and scripts.
  public var caseName: String {
    switch self {
    case .none: "none"
    case .success: "success"
    case .failure: "failure"
    }
  }
}

/// The health-data form's observable state, held by `HealthFormClient.cell`.
///
/// - Note: Isolation: a `Sendable` value.
public struct HealthFormState: Sendable, Equatable {
  /// The fields.
  public var fields: HealthFormFields
  /// The reasons the last submit was refused, in display order (empty when none).
  public var validationErrors: [HealthFormValidationError]
  /// How the last submit ended.
  public var result: HealthFormSubmitResult
  /// Whether a submit is saving.
  public var isSubmitting: Bool
  /// How many metrics this form saved.
  public var submittedCount: Int
  /// The saved metric being edited (a submit updates it), or `nil` when the form creates a
  /// new one.
  public var editing: HealthMetric?

  /// An empty form dated `date`.
  ///
  /// - Complexity: O(1).
  public init(date: Date, metricType: MetricType = .heartRate) {
    fields = HealthFormFields(metricType: metricType, date: date)
    validationErrors = []
    result = .none
    isSubmitting = false
    submittedCount = 0
    editing = nil
  }

  /// The first validation error, the one a single-line form shows.
  public var validationError: HealthFormValidationError? { validationErrors.first }
  /// Its text.
  public var validationMessage: String? { validationError?.description }
  /// One word for scripts and reports: `submitting`, `invalid` (the last submit was refused
  /// by validation), `success`, `failure` or `none`.
  public var status: String {
    if isSubmitting { return "submitting" }
    if !validationErrors.isEmpty { return "invalid" }
    return result.caseName
  }
  /// Whether the submit button is enabled: a value is typed and nothing is saving.
  public var canSubmit: Bool {
    !fields.valueText.trimmingCharacters(in: .whitespaces).isEmpty && !isSubmitting
  }
}
