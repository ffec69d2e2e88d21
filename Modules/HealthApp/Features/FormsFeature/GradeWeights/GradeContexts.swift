import Foundation
import WeftContexts

/// The class context: receives every category's weight (an observer above hears posts from
/// below) and checks the class-level rule no category can check alone — with a percent
/// basis the weights sum to at most 100. A breach sets `.weightsExceed100Percent` here.
///
/// - Complexity: a check is O(c), c = categories.
/// - Note: Isolation: MainActor.
public final class GradeClassContext: Context, DefaultInitializableContext {
  /// The last weight each category reported, by category name.
  public private(set) var weights: [String: Double] = [:]
  /// Whether the last check found the sum past 100 with a percent basis.
  public private(set) var sumExceeds100Percent = false
  /// How many checks ran.
  public private(set) var checks = 0
  /// The last error a check met (a basis that could not be requested), or `nil`.
  public private(set) var lastError: ContextError?

  /// Makes the context with its observers.
  ///
  /// - Complexity: O(1).
  public override init() {
    super.init()
    addObserver(
      .assessmentCategoryWeightChanged,
      calling: { [unowned self] in record($0.object as? CategoryWeight) }, expiresWith: self)
    addObserver(.gradeBasisChanged, calling: { [unowned self] _ in check() }, expiresWith: self)
  }

  /// The sum of the reported weights.
  public var weightSum: Double { weights.values.reduce(0, +) }

  private func record(_ change: CategoryWeight?) {
    guard let change else { return }
    weights[change.category] = change.weight ?? 0
    check()
  }

  /// Runs the check now: requests the basis (throwing twin), compares the sum, and sets or
  /// unsets `.weightsExceed100Percent` on this context.
  ///
  /// - Complexity: O(c + d), c = categories, d = depth.
  public func check() {
    checks += 1
    do {
      let basis: GradeBasis = try tryRequest(.gradeBasis)
      sumExceeds100Percent = basis == .percent && weightSum > 100
      lastError = nil
      let flagged = flagIsSet(.weightsExceed100Percent)
      if sumExceeds100Percent, !flagged { try trySetFlag(.weightsExceed100Percent) }
      if !sumExceeds100Percent, flagged { try tryUnsetFlag(.weightsExceed100Percent) }
    } catch {
      lastError = error
    }
  }
}

/// An assessment category (assignments, exams): how many assessments it has, and which of
/// its two weight fields is shown.
///
/// - Note: Isolation: MainActor.
public final class GradeCategoryContext: Context, DefaultInitializableContext {
  /// How many assessments the category has (at least 1).
  public internal(set) var numberOfAssessments = 1
  /// Whether the total field (rather than the each field) is shown.
  public private(set) var showsTotalField = true

  /// Makes the context with its requestable and executable.
  ///
  /// - Complexity: O(1).
  public override init() {
    super.init()
    addRequestable(
      .numberOfAssessments, requesting: { [unowned self] in numberOfAssessments },
      expiresWith: self)
    addExecutable(
      .swapWeightInputViews, executing: { [unowned self] in showsTotalField.toggle() },
      expiresWith: self)
  }
}

/// The grade-basis selector: provides the basis on the class context, where both
/// categories find it (a requestable above is visible below, never ambiguous).
///
/// - Note: Isolation: MainActor.
@MainActor
final class GradeBasisSelector {
  var basis: GradeBasis

  init(basis: GradeBasis, context: GradeClassContext) throws(ContextError) {
    self.basis = basis
    try context.tryAddRequestable(
      .gradeBasis, requesting: { [unowned self] in self.basis }, expiresWith: self)
    try context.tryAddRequestable(
      .percentsIsSelected, requesting: { [unowned self] in self.basis == .percent },
      expiresWith: self)
  }
}

/// A weight field of a category, "total" or "each": provides its weight by name and fills
/// itself in when the other field changes, by requesting the other's weight and the number
/// of assessments.
///
/// - Note: Isolation: MainActor.
@MainActor
final class WeightField {
  enum Kind {
    case total
    case each
  }

  let kind: Kind
  unowned let context: GradeCategoryContext
  private(set) var text = ""
  /// The last error met while filling in from the other field.
  private(set) var lastError: ContextError?

  var weight: Double? { Double(text.trimmingCharacters(in: .whitespaces)) }

  init(_ kind: Kind, context: GradeCategoryContext) throws(ContextError) {
    self.kind = kind
    self.context = context
    try context.tryAddRequestable(
      kind == .total ? .totalWeight : .eachWeight,
      requesting: { [unowned self] in weight }, expiresWith: self)
    try context.tryAddObserver(
      kind == .total ? .eachWeightChanged : .totalWeightChanged,
      calling: { [unowned self] _ in fillInFromOtherField() }, expiresWith: self)
  }

  private var ownFlag: Flag.Name { kind == .total ? .totalFieldSetByUser : .eachFieldSetByUser }
  private var otherFlag: Flag.Name {
    kind == .total ? .eachFieldSetByUser : .totalFieldSetByUser
  }
  private var changed: Notification.Name {
    kind == .total ? .totalWeightChanged : .eachWeightChanged
  }

  /// The person typed `text` here: flag which field was typed, tell the other field, and
  /// report the category's weight to the class.
  func userTyped(_ text: String) throws(ContextError) {
    self.text = text
    if !context.flagIsSet(ownFlag) { try context.trySetFlag(ownFlag) }
    if context.flagIsSet(otherFlag) { try context.tryUnsetFlag(otherFlag) }
    try announce()
  }

  /// Tells the other field this one changed, then reports the category's total weight.
  func announce() throws(ContextError) {
    context.post(name: changed)
    let count: Int = try context.tryRequest(.numberOfAssessments)
    let total = kind == .total ? weight : weight.map { $0 * Double(count) }
    context.post(
      name: .assessmentCategoryWeightChanged,
      object: CategoryWeight(category: context.name, weight: total))
  }

  private func fillInFromOtherField() {
    do {
      let count: Int = try context.tryRequest(.numberOfAssessments)
      let other: Double? = try context.tryRequest(kind == .total ? .eachWeight : .totalWeight)
      let mine = other.map { kind == .total ? $0 * Double(count) : $0 / Double(count) }
      text = mine.map(formatWeight) ?? ""
      lastError = nil
    } catch {
      lastError = error
    }
  }
}

/// A weight without a needless `.0`, rounded to 4 decimals (`40`, `33.3333`).
func formatWeight(_ weight: Double) -> String {
  let rounded = (weight * 10_000).rounded() / 10_000
  return rounded == rounded.rounded() && abs(rounded) < 1e15
    ? String(Int64(rounded)) : String(rounded)
}
