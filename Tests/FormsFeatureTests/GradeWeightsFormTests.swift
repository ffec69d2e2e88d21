import FormsFeature
import Testing
import WeftContexts

@MainActor
@Suite("Grade-weights form")
struct GradeWeightsFormTests {
  /// A detached root, so the tests never touch `Context.global`.
  let root = Context(named: "test")

  private func makeForm() throws -> GradeWeightsForm {
    try GradeWeightsForm(in: root)
  }

  @Test func totalAndEachAreKeptInStep() throws {
    let form = try makeForm()
    try form.set(.total, of: "Assignments", to: "40")
    #expect(form.state.category("Assignments")?.eachText == "10")
    #expect(form.state.category("Assignments")?.editedField == .total)
    try form.set(.each, of: "Exams", to: "15")
    #expect(form.state.category("Exams")?.totalText == "30")
    #expect(form.state.category("Exams")?.editedField == .each)
    // Posts in one category do not reach the other.
    #expect(form.state.category("Assignments")?.totalText == "40")

    // A new count refills the field the person did not type last.
    try form.set(.count, of: "Assignments", to: "5")
    #expect(form.state.category("Assignments")?.eachText == "8")
    try form.set(.count, of: "Exams", to: "3")
    #expect(form.state.category("Exams")?.totalText == "45")
    #expect(form.state.category("Exams")?.eachText == "15")
    #expect(form.state.weightSum == 85)

    // Typing the other field moves the flag.
    try form.set(.each, of: "Assignments", to: "4")
    #expect(form.state.category("Assignments")?.totalText == "20")
    #expect(try form.flagIsSet("each-field-set-by-user", at: "Assignments"))
    #expect(try !form.flagIsSet("total-field-set-by-user", at: "Assignments"))
    #expect(
      form.state.category("Assignments")?.rendered == "Assignments: total 20%, each 4% × 5")
  }

  @Test func weightsOver100PercentAreFlagged() throws {
    let form = try makeForm()
    try form.set(.total, of: "Assignments", to: "40")
    try form.set(.total, of: "Exams", to: "30")
    #expect(form.state.exceedsLimit == false)
    #expect(form.state.limitMessage == nil)

    try form.set(.each, of: "Exams", to: "45")  // 40 + 90
    #expect(form.state.weightSum == 130)
    #expect(form.state.exceedsLimit)
    #expect(
      form.state.limitMessage
        == "The weights add up to 130%, more than 100%. Lower a category's weight, or grade in "
        + "points.")
    // The flag is set on the class and visible below it.
    #expect(try form.flagIsSet("weights-exceed-100-percent", at: "COP101"))
    #expect(try form.flagIsSet("weights-exceed-100-percent", at: "Exams"))

    try form.set(.total, of: "Exams", to: "60")  // exactly 100 is fine
    #expect(form.state.exceedsLimit == false)
    #expect(try !form.flagIsSet("weights-exceed-100-percent", at: "COP101"))
    #expect(form.state.checks >= 4)
  }

  @Test func pointsHaveNoLimitAndTheBasisIsRequestedFromBothCategories() throws {
    let form = try makeForm()
    try form.set(.total, of: "Assignments", to: "200")
    try form.set(.total, of: "Exams", to: "500")
    #expect(form.state.exceedsLimit)
    #expect(form.state.categories.map(\.suffix) == ["%", "%"])

    form.setBasis(.points)
    #expect(form.state.exceedsLimit == false)
    #expect(form.state.basis == .points)
    #expect(form.state.categories.map(\.suffix) == ["pts", "pts"])
    #expect(try form.request("grade-basis", at: "Assignments") == .basis(.points))
    #expect(try form.request("grade-basis", at: "Exams") == .basis(.points))
    #expect(try form.request("percents-is-selected", at: "COP101/Exams") == .bool(false))

    form.setBasis(.percent)
    #expect(form.state.exceedsLimit)
    #expect(try form.request("grade-basis", at: "Exams") == .basis(.percent))
  }

  @Test func requestsReadTheFields() throws {
    let form = try makeForm()
    #expect(try form.request("total-weight", at: "Assignments") == .weight(nil))
    try form.set(.total, of: "Assignments", to: "40")
    #expect(try form.request("each-weight", at: "Assignments") == .weight(10))
    #expect(try form.request("number-of-assessments", at: "Exams") == .count(2))
    #expect(try form.request("each-weight", at: "Assignments").description == "10")
  }

  @Test func aTotalAskedFromTheClassIsAmbiguous() throws {
    let form = try makeForm()
    let ambiguous = ContextError.ambiguous(
      .requestable, name: "total-weight", context: "test/COP101",
      providers: ["test/COP101/Assignments", "test/COP101/Exams"])
    #expect(throws: GradeWeightsError.context(ambiguous)) {
      try form.request("total-weight", at: "")
    }
    #expect(
      GradeWeightsError.context(ambiguous).description
        == "requestable 'total-weight' is ambiguous from context 'test/COP101': it is provided "
        + "below by 'test/COP101/Assignments' and 'test/COP101/Exams', and a requestable is "
        + "visible only at and below the context it was added to. Request it from one of those "
        + "contexts, or add one on 'test/COP101' or a supercontext.")
    #expect(throws: GradeWeightsError.self) { try form.execute("swap-weight-input-views", at: ".") }
    try form.execute("swap-weight-input-views", at: "Exams")
    #expect(form.state.category("Exams")?.showsTotalField == false)
    #expect(form.state.category("Assignments")?.showsTotalField == true)
  }

  @Test func flagsThroughTheAPI() throws {
    let form = try makeForm()
    try form.setFlag("reviewed", at: "Exams")
    #expect(try form.flagIsSet("reviewed", at: "Exams"))
    #expect(try !form.flagIsSet("reviewed", at: "COP101"))
    #expect(
      throws: GradeWeightsError.context(
        .flagAlreadySet(name: "reviewed", context: "test/COP101/Exams", setOn: "test/COP101/Exams"))
    ) { try form.setFlag("reviewed", at: "Exams") }
    #expect(
      throws: GradeWeightsError.context(
        .flagNotSet(name: "reviewed", context: "test/COP101", setBelow: ["test/COP101/Exams"]))
    ) { try form.unsetFlag("reviewed", at: "COP101") }
    try form.unsetFlag("reviewed", at: "test/COP101/Exams")
    #expect(try !form.flagIsSet("reviewed", at: "Exams"))
  }

  @Test func badInputIsRefusedWithPinnedMessages() throws {
    let form = try makeForm()
    #expect(throws: GradeWeightsError.invalidCount("0", category: "Exams")) {
      try form.set(.count, of: "Exams", to: "0")
    }
    #expect(
      form.state.lastError
        == "'0' is not a number of assessments for 'Exams': enter a whole number of at least 1.")
    #expect(
      throws: GradeWeightsError.unknownCategory("Quizzes", known: ["Assignments", "Exams"])
    ) { try form.set(.total, of: "Quizzes", to: "10") }
    #expect(
      GradeWeightsError.unknownContext(path: "Labs", known: ["COP101", "COP101/Exams"])
        .description
        == "no context of the grade-weights form has the path 'Labs'. Use one of 'COP101', "
        + "'COP101/Exams'.")
    #expect(throws: GradeWeightsError.self) { try form.request("grade-basis", at: "Labs") }
    // A non-number empties the other field and counts as no weight.
    try form.set(.total, of: "Assignments", to: "abc")
    #expect(form.state.category("Assignments")?.eachText == "")
    #expect(form.state.lastError == nil)
  }

  @Test func theSimulatorsSpellingsAreAccepted() throws {
    let form = try makeForm()
    try form.set(.count, of: "assignments", to: 4)
    try form.set(.total, of: "assignments", to: 40)
    #expect(form.state.category("Assignments")?.eachText == "10")
    try form.set(.each, of: "EXAMS", to: 12.5)
    #expect(form.state.category("Exams")?.totalText == "25")
    for path in [
      "global/COP101/Assignments", "test/COP101/Assignments", "COP101/Assignments",
      "assignments", "/Assignments/",
    ] {
      #expect(try form.context(at: path) === form.categoryContexts[0], "\(path)")
    }
    for path in ["", ".", "COP101", "global/COP101", "test/cop101"] {
      #expect(try form.context(at: path) === form.classContext, "\(path)")
    }
    #expect(try form.request("total-weight", at: "global/COP101/Assignments") == .weight(40))
    #expect(
      throws: GradeWeightsError.unknownContext(
        path: "global/Labs",
        known: ["test/COP101", "test/COP101/Assignments", "test/COP101/Exams"])
    ) { try form.context(at: "global/Labs") }
  }

  @Test func postingReachesTheClassCheck() throws {
    let form = try makeForm()
    let checks = form.state.checks
    try form.post("grade-basis-changed", at: "COP101")
    #expect(form.state.checks == checks + 1)
    // A post in one category is not heard by the other category's fields.
    try form.set(.total, of: "Exams", to: "30")
    try form.post("total-weight-changed", at: "Assignments")
    #expect(form.state.category("Exams")?.eachText == "15")
    #expect(form.state.category("Assignments")?.eachText == "")
  }

  @Test func theStateIsObservableThroughTheCell() throws {
    let form = try makeForm()
    let before = form.cell.version
    try form.set(.total, of: "Assignments", to: "40")
    #expect(form.cell.version == before + 1)
    #expect(form.cell.state.category("Assignments")?.eachText == "10")
  }

  @Test func theFormAndItsContextsAreFreed() throws {
    weak var weakForm: GradeWeightsForm?
    weak var weakClass: GradeClassContext?
    weak var weakCategory: GradeCategoryContext?
    do {
      let form = try makeForm()
      weakForm = form
      weakClass = form.classContext
      weakCategory = form.categoryContexts.first
      try form.set(.total, of: "Assignments", to: "40")
      form.setBasis(.points)
    }
    #expect(weakForm == nil)
    #expect(weakClass == nil)
    #expect(weakCategory == nil)
    #expect(root.subcontexts.isEmpty)
  }
}
