import Foundation
import WeftContexts

extension Requestable.Name {
  /// A category's total weight (`Double?`), provided by its total field.
  public static let totalWeight = Requestable.Name("total-weight")
  /// A category's weight per assessment (`Double?`), provided by its each field.
  public static let eachWeight = Requestable.Name("each-weight")
  /// How many assessments a category has (`Int`), provided by the category context.
  public static let numberOfAssessments = Requestable.Name("number-of-assessments")
  /// The class's grade basis (`GradeBasis`), provided on the class context.
  public static let gradeBasis = Requestable.Name("grade-basis")
  /// Whether the basis is percent (`Bool`), provided on the class context.
  public static let percentsIsSelected = Requestable.Name("percents-is-selected")
}

extension Notification.Name {
  /// Posted on a category when its total field was typed into.
  public static let totalWeightChanged = Notification.Name("total-weight-changed")
  /// Posted on a category when its each field was typed into.
  public static let eachWeightChanged = Notification.Name("each-weight-changed")
  /// Posted on a category with its `CategoryWeight` after every change; the class hears it.
  public static let assessmentCategoryWeightChanged = Notification.Name(
    "assessment-category-weight-changed")
  /// Posted on the class context when the grade basis changed.
  public static let gradeBasisChanged = Notification.Name("grade-basis-changed")
}

extension Flag.Name {
  /// Set on a category when the person typed its total last.
  public static let totalFieldSetByUser = Flag.Name("total-field-set-by-user")
  /// Set on a category when the person typed its each weight last.
  public static let eachFieldSetByUser = Flag.Name("each-field-set-by-user")
  /// Set on the class context while the basis is percent and the weights sum past 100.
  public static let weightsExceed100Percent = Flag.Name("weights-exceed-100-percent")
}

extension Executable.Name {
  /// Shows the other weight field of a category (total ↔ each).
  public static let swapWeightInputViews = Executable.Name("swap-weight-input-views")
}

/// How a class grades: weights in percent of the grade, or in points.
///
/// - Note: Isolation: a `Sendable` value.
public enum GradeBasis: String, Sendable, CaseIterable, Codable, Hashable {
  /// Weights are percentages; they must not sum past 100.
  case percent
  /// Weights are points; any sum is fine.
  case points

  /// `%` or `pts`.
  public var suffix: String {
    switch self {
    case .percent: "%"
    case .points: "pts"
    }
  }
}

/// What a category posts to its class when its weight changes.
///
/// - Note: Isolation: a `Sendable` value.
public struct CategoryWeight: Sendable, Equatable {
  /// The category's context name.
  public var category: String
  /// Its total weight; `nil` when the field holds no number.
  public var weight: Double?

  /// Makes the payload.
  ///
  /// - Complexity: O(1).
  public init(category: String, weight: Double?) {
    self.category = category
    self.weight = weight
  }
}
