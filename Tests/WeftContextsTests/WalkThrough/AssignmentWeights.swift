import Foundation
import WeftContexts

// The assignment-weights form of the context-tree design, headless: a class context with a
// grade-basis selector, and one subcontext per assessment category (assignments, exams),
// each with a "total" and an "each" weight field that fill each other in by asking.

extension Requestable.Name {
  static let totalWeight = Requestable.Name("total-weight")
  static let eachWeight = Requestable.Name("each-weight")
  static let numberOfAssessments = Requestable.Name("number-of-assessments")
  static let percentsIsSelected = Requestable.Name("percents-is-selected")
}

extension Notification.Name {
  static let totalWeightChanged = Notification.Name("total-weight-changed")
  static let eachWeightChanged = Notification.Name("each-weight-changed")
  static let assessmentCategoryWeightChanged = Notification.Name(
    "assessment-category-weight-changed")
}

extension Flag.Name {
  static let totalFieldSetByUser = Flag.Name("total-field-set-by-user")
  static let eachFieldSetByUser = Flag.Name("each-field-set-by-user")
}

extension Executable.Name {
  static let swapWeightInputViews = Executable.Name("swap-weight-input-views")
}

/// What a category posts to its class when its weight changes.
struct CategoryWeight {
  let category: String
  let weight: Double?
}

/// Formats a weight without a needless ".0".
func formatWeight(_ weight: Double) -> String {
  weight == weight.rounded() ? String(Int(weight)) : String(weight)
}

/// The class ("Context-oriented Programming 101"): checks that the category weights do not
/// pass 100% — a class-level rule no category can check alone.
final class ClassContext: Context, DefaultInitializableContext {
  private(set) var weights: [String: Double] = [:]
  private(set) var sumExceeds100Percent = false
  private(set) var checks = 0

  override init() {
    super.init()
    addObserver(
      .assessmentCategoryWeightChanged,
      calling: { [unowned self] in validateAssessmentCategoryWeightSum($0) },
      expiresWith: self)
  }

  private func validateAssessmentCategoryWeightSum(_ notification: Notification) {
    guard let change = notification.object as? CategoryWeight else { return }
    checks += 1
    weights[change.category] = change.weight
    let percents: Bool = request(.percentsIsSelected)
    sumExceeds100Percent = percents && weights.values.reduce(0, +) > 100
  }
}

/// An assessment category (assignments, exams): knows how many assessments it has and
/// which weight field is shown.
final class CategoryContext: Context, DefaultInitializableContext {
  var numberOfAssessments = 1
  private(set) var showsTotalField = true

  override init() {
    super.init()
    addRequestable(
      .numberOfAssessments, requesting: { [unowned self] in numberOfAssessments },
      expiresWith: self)
    addExecutable(
      .swapWeightInputViews, executing: { [unowned self] in showsTotalField.toggle() },
      expiresWith: self)
  }
}

/// The grade-basis selector, on the class context: percents or points.
final class GradeBasisSelectionView: HeadlessView {
  var attachment = ViewAttachment(name: "GradeBasis")
  private let classContext: ClassContext
  var percentsIsSelected = true

  init(context: ClassContext) {
    self.classContext = context
    context.addRequestable(
      .percentsIsSelected, requesting: { [unowned self] in percentsIsSelected },
      ifAttached: self)
  }

  func render() -> String { percentsIsSelected ? "(•) % ( ) pts" : "( ) % (•) pts" }
}

/// A weight field: "total" or "each". Each one provides its weight by name and fills itself
/// in when the other one changes, asking for the other's value.
final class WeightFieldContainer: HeadlessView {
  enum Kind { case total, each }

  var attachment: ViewAttachment
  let kind: Kind
  private let context: Context
  private(set) var text = ""
  private(set) var rendered = ""

  var weight: Double? { Double(text) }

  init(_ kind: Kind, context: Context) {
    self.kind = kind
    self.context = context
    self.attachment = ViewAttachment(name: kind == .total ? "TotalField" : "EachField")
    context.addRequestable(
      kind == .total ? .totalWeight : .eachWeight,
      requesting: { [unowned self] in weight }, ifAttached: self)
    context.addObserver(
      kind == .total ? .eachWeightChanged : .totalWeightChanged,
      calling: { [unowned self] _ in onOtherFieldChanged() }, ifAttached: self)
  }

  /// The user typed `text` into this field.
  func userTyped(_ text: String) {
    self.text = text
    let mine: Flag.Name = kind == .total ? .totalFieldSetByUser : .eachFieldSetByUser
    let theirs: Flag.Name = kind == .total ? .eachFieldSetByUser : .totalFieldSetByUser
    if !context.flagIsSet(mine) { context.setFlag(mine) }
    if context.flagIsSet(theirs) { context.unsetFlag(theirs) }
    context.post(name: kind == .total ? .totalWeightChanged : .eachWeightChanged)
    let count: Int = context.request(.numberOfAssessments)
    let total = kind == .total ? weight : weight.map { $0 * Double(count) }
    context.post(
      name: .assessmentCategoryWeightChanged,
      object: CategoryWeight(category: context.name, weight: total))
    renderNow()
  }

  private func onOtherFieldChanged() {
    let count: Int = context.request(.numberOfAssessments)
    let other: Double? = context.request(kind == .total ? .eachWeight : .totalWeight)
    let mine = other.map { kind == .total ? $0 * Double(count) : $0 / Double(count) }
    text = mine.map(formatWeight) ?? ""
    renderNow()
  }

  func render() -> String {
    let percents: Bool = context.request(.percentsIsSelected)
    return "\(kind == .total ? "Total" : "Each"): \(text)\(percents ? "%" : "pts")"
  }

  func didRender(_ rendering: String) { rendered = rendering }
}

/// The layout of one category: a container with the total and the each field.
final class WeightFieldsContainer: HeadlessView {
  var attachment = ViewAttachment(name: "WeightFields")
  let total: WeightFieldContainer
  let each: WeightFieldContainer

  init(context: Context) {
    total = WeightFieldContainer(.total, context: context)
    each = WeightFieldContainer(.each, context: context)
    addSubview(total)
    addSubview(each)
  }

  func render() -> String { "" }
}
