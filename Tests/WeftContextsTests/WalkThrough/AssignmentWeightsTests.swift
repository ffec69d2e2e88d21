import Foundation
import Testing

@testable import WeftContexts

/// The whole assignment-weights walk-through of the context-tree design.
///
/// ```
/// global
/// └─ COP101 (ClassContext)          percents-is-selected   ← GradeBasisSelectionView
///    ├─ Assignments (CategoryContext)  total-weight, each-weight ← the two weight fields
///    └─ Exams (CategoryContext)        total-weight, each-weight ← the two weight fields
/// ```
@Suite("Assignment weights walk-through")
@MainActor
struct AssignmentWeightsTests {
  /// The form, built as in the walk-through.
  @MainActor
  final class Form {
    let window = ContextWindow(name: "Grades")
    let classContext: ClassContext
    let assignments: CategoryContext
    let exams: CategoryContext
    let gradeBasis: GradeBasisSelectionView
    let assignmentFields: WeightFieldsContainer
    let examFields: WeightFieldsContainer

    init() {
      classContext = Context.global.createSubcontext(ofType: ClassContext.self, named: "COP101")
      assignments = classContext.createSubcontext(
        ofType: CategoryContext.self, named: "Assignments")
      exams = classContext.createSubcontext(ofType: CategoryContext.self, named: "Exams")
      assignments.numberOfAssessments = 4
      exams.numberOfAssessments = 2
      gradeBasis = GradeBasisSelectionView(context: classContext)
      assignmentFields = WeightFieldsContainer(context: assignments)
      examFields = WeightFieldsContainer(context: exams)
      window.attach(gradeBasis)
      window.attach(assignmentFields)
      window.attach(examFields)
    }

    func track(in lifetimes: LifetimeTracker) {
      lifetimes.track(window)
      lifetimes.track(classContext)
      lifetimes.track(assignments, "Assignments")
      lifetimes.track(exams, "Exams")
      lifetimes.track(gradeBasis)
      lifetimes.track(assignmentFields, "assignment fields")
      lifetimes.track(assignmentFields.total, "assignments total")
      lifetimes.track(examFields.each, "exams each")
    }
  }

  @Test func theContextTreeMatchesTheDiagram() {
    let form = Form()
    #expect(form.assignments.path == "global/COP101/Assignments")
    #expect(form.exams.path == "global/COP101/Exams")
    #expect(form.classContext.subcontexts.map(\.name) == ["Assignments", "Exams"])
    #expect(form.window.viewCount == 7)
  }

  @Test func theEachFieldAsksForTheTotalWeight() {
    let form = Form()
    form.assignmentFields.total.userTyped("40")
    #expect(form.assignmentFields.each.text == "10")  // 40 / 4 assignments
    #expect(form.assignmentFields.each.rendered == "Each: 10%")
    #expect(form.assignmentFields.total.rendered == "Total: 40%")
    let total: Double? = form.assignments.request(.totalWeight)
    #expect(total == 40)
  }

  @Test func theTotalFieldAsksForTheEachWeight() {
    let form = Form()
    form.examFields.each.userTyped("15")
    #expect(form.examFields.total.text == "30")  // 15 × 2 exams
    #expect(form.examFields.total.rendered == "Total: 30%")
  }

  @Test func postsInOneCategoryDoNotReachTheOther() {
    let form = Form()
    form.assignmentFields.total.userTyped("40")
    #expect(form.examFields.each.text == "")  // a sibling: not in the context-tree
    #expect(form.examFields.total.text == "")
  }

  @Test func flagsRecordWhichFieldTheUserSet() {
    let form = Form()
    form.assignmentFields.total.userTyped("40")
    #expect(form.assignments.flagIsSet(.totalFieldSetByUser))
    #expect(!form.assignments.flagIsSet(.eachFieldSetByUser))
    form.assignmentFields.each.userTyped("5")
    #expect(form.assignments.flagIsSet(.eachFieldSetByUser))
    #expect(!form.assignments.flagIsSet(.totalFieldSetByUser))
    #expect(!form.exams.flagIsSet(.eachFieldSetByUser))
    #expect(!form.classContext.flagIsSet(.eachFieldSetByUser))
  }

  @Test func theClassContextHearsBothCategoriesAndChecksTheSum() {
    let form = Form()
    form.assignmentFields.total.userTyped("40")
    form.examFields.each.userTyped("15")  // exams total 30
    #expect(form.classContext.weights == ["Assignments": 40, "Exams": 30])
    #expect(!form.classContext.sumExceeds100Percent)

    form.examFields.total.userTyped("90")  // 40 + 90 = 130%: too much
    #expect(form.classContext.sumExceeds100Percent)

    form.examFields.total.userTyped("60")  // 40 + 60 = 100%: fine
    #expect(!form.classContext.sumExceeds100Percent)
    #expect(form.classContext.checks == 4)
  }

  @Test func bothSubcontextsReadTheGradeBasisFromTheClassContext() {
    let form = Form()
    let fromAssignments: Bool = form.assignments.request(.percentsIsSelected)
    let fromExams: Bool = form.exams.request(.percentsIsSelected)
    #expect(fromAssignments && fromExams)

    form.gradeBasis.percentsIsSelected = false  // points: 500 pts is fine
    form.examFields.total.userTyped("500")
    #expect(form.examFields.total.rendered == "Total: 500pts")
    #expect(!form.classContext.sumExceeds100Percent)
  }

  @Test func theClassContextAskingForTheTotalWeightIsAmbiguous() {
    let form = Form()
    let error = #expect(throws: ContextError.self) {
      try form.classContext.tryRequest(.totalWeight, as: Double?.self)
    }
    #expect(
      error
        == .ambiguous(
          .requestable, name: "total-weight", context: "global/COP101",
          providers: ["global/COP101/Assignments", "global/COP101/Exams"]))
    #expect(error?.description == Messages.ambiguousTotalWeight)
  }

  @Test func eachCategoryRunsItsOwnExecutableButTheClassCannot() {
    let form = Form()
    form.assignments.execute(.swapWeightInputViews)
    #expect(!form.assignments.showsTotalField)
    #expect(form.exams.showsTotalField)
    let error = #expect(throws: ContextError.self) {
      try form.classContext.tryExecute(.swapWeightInputViews)
    }
    #expect(error?.description == Messages.executableAmbiguous)
  }

  @Test func detachedFieldsStopAnsweringAndReleasedOnesCanBeReplaced() throws {
    let form = Form()
    form.assignmentFields.total.userTyped("40")
    form.window.detach(form.assignmentFields)
    let error = #expect(throws: ContextError.self) {
      try form.assignments.tryRequest(.totalWeight, as: Double?.self)
    }
    #expect(error?.description == Messages.attachedConditionFailed)

    // A detached each field no longer hears the total field either.
    form.window.attach(form.assignmentFields)
    form.assignmentFields.each.removeFromSuperview()
    form.assignmentFields.total.userTyped("80")
    #expect(form.assignmentFields.each.text == "10")

    // While the old fields live, new ones cannot take their names.
    #expect(
      throws: ContextError.nameTaken(
        .requestable, name: "total-weight", context: "global/COP101/Assignments")
    ) {
      try form.assignments.tryAddRequestable(.totalWeight, requesting: { 0.0 })
    }
  }

  @Test func replacingTheFieldLayoutReplacesTheExpiredRequestables() {
    let form = Form()
    weak var oldTotal: WeightFieldContainer?
    do {
      oldTotal = form.assignmentFields.total
      form.window.detach(form.assignmentFields)
    }
    // The form keeps assignmentFields; make a replacement layout on a fresh category.
    let quizzes = form.classContext.createSubcontext(ofType: CategoryContext.self, named: "Quizzes")
    do {
      let first = WeightFieldsContainer(context: quizzes)
      form.window.attach(first)
      first.total.userTyped("20")
      form.window.detach(first)
    }
    let replacement = WeightFieldsContainer(context: quizzes)  // old ones expired: replaced
    form.window.attach(replacement)
    replacement.total.userTyped("25")
    let total: Double? = quizzes.request(.totalWeight)
    #expect(total == 25)
    #expect(oldTotal != nil)  // still held by the form
  }

  @Test func theWholeFormIsFreedWhenReleased() {
    let lifetimes = LifetimeTracker()
    do {
      let form = Form()
      form.track(in: lifetimes)
      form.assignmentFields.total.userTyped("40")
      form.examFields.each.userTyped("15")
      form.window.detachAll()
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}
