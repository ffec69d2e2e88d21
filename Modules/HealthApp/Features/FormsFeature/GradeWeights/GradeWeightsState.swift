/// Which input of a category the simulator or a view sets.
///
/// - Note: Isolation: a `Sendable` value.
public enum GradeWeightField: String, Sendable, CaseIterable, Hashable {
  /// The category's total weight.
  case total
  /// The weight of each assessment.
  case each
  /// The number of assessments.
  case count
}

/// One category as the form shows it.
///
/// - Note: Isolation: a `Sendable` value.
public struct GradeCategoryState: Sendable, Equatable, Hashable {
  /// The category's name (its context's name).
  public var name: String
  /// The category's context path.
  public var path: String
  /// How many assessments it has.
  public var numberOfAssessments: Int
  /// The total field's text.
  public var totalText: String
  /// The each field's text.
  public var eachText: String
  /// The field the person typed last (from the category's flags), if any.
  public var editedField: GradeWeightField?
  /// `%` or `pts`, as requested from this category's context; `?` if the request failed.
  public var suffix: String
  /// Whether the total field (rather than the each field) is shown.
  public var showsTotalField: Bool

  /// The total field as a number.
  public var total: Double? { Double(totalText) }
  /// The each field as a number.
  public var each: Double? { Double(eachText) }

  /// `Assignments: total 40%, each 10% × 4`.
  public var rendered: String {
    "\(name): total \(totalText)\(suffix), each \(eachText)\(suffix) × \(numberOfAssessments)"
  }
}

/// The grade-weights form's observable state, held by `GradeWeightsForm.cell`.
///
/// - Note: Isolation: a `Sendable` value.
public struct GradeWeightsState: Sendable, Equatable {
  /// The class's name.
  public var className: String
  /// The class context's path.
  public var classPath: String
  /// The grade basis.
  public var basis: GradeBasis
  /// The categories, in creation order.
  public var categories: [GradeCategoryState]
  /// The sum of the categories' total weights, as the class context last checked it.
  public var weightSum: Double
  /// Whether the class-level check flags the sum (percent basis and past 100).
  public var exceedsLimit: Bool
  /// How many class-level checks ran.
  public var checks: Int
  /// The text of the last error a form operation met, or `nil` after a successful one.
  public var lastError: String?

  /// The category named `name`.
  ///
  /// - Complexity: O(c), c = categories.
  public func category(_ name: String) -> GradeCategoryState? {
    categories.first { $0.name == name }
  }

  /// The class-level message: `nil` when fine.
  public var limitMessage: String? {
    exceedsLimit
      ? "The weights add up to \(formatWeight(weightSum))%, more than 100%. Lower a category's "
        + "weight, or grade in points."
      : nil
  }
}
