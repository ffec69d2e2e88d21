import Testing

@testable import WeftContexts

extension Requestable.Name {
  fileprivate static let grade = Requestable.Name("grade")
  fileprivate static let basis: Requestable.Name = "basis"
}

/// The scope of a requestable: at and below the context it was added to.
@Suite("Requestable scope")
@MainActor
struct RequestableScopeTests {
  @Test func visibleAtTheContextItWasAddedTo() throws {
    let root = makeRoot("Scope")
    root.addRequestable(.grade, requesting: { 90 })
    #expect(root.request(.grade) == 90)
    #expect(try root.tryRequest(.grade, as: Int.self) == 90)
  }

  @Test func visibleBelowAtAnyDepth() {
    let root = makeRoot("Scope")
    let child = root.createSubcontext(named: "Child")
    let grandchild = child.createSubcontext(named: "Grandchild")
    root.addRequestable(.grade, requesting: { 90 })
    #expect(child.request(.grade) == 90)
    #expect(grandchild.request(.grade, as: Int.self) == 90)
  }

  @Test func notVisibleAboveWhenOneSubcontextProvidesIt() {
    let root = makeRoot("Scope")
    let child = root.createSubcontext(named: "Child")
    child.addRequestable(.grade, requesting: { 90 })
    #expect(
      throws: ContextError.onlyBelow(
        .requestable, name: "grade", context: "global/Scope", provider: "global/Scope/Child")
    ) {
      try root.tryRequest(.grade, as: Int.self)
    }
    #expect(!root.isRequestable(.grade))
  }

  @Test func notVisibleFromASibling() {
    let root = makeRoot("Scope")
    let assignments = root.createSubcontext(named: "Assignments")
    let exams = root.createSubcontext(named: "Exams")
    assignments.addRequestable(.grade, requesting: { 90 })
    #expect(
      throws: ContextError.notFound(.requestable, name: "grade", context: "global/Scope/Exams")
    ) {
      try exams.tryRequest(.grade, as: Int.self)
    }
  }

  @Test func twoSubcontextsProvidingItMakeItAmbiguous() {
    let root = makeRoot("Scope")
    let assignments = root.createSubcontext(named: "Assignments")
    let exams = root.createSubcontext(named: "Exams")
    assignments.addRequestable(.grade, requesting: { 1 })
    let final = exams.createSubcontext(named: "Final")
    final.addRequestable(.grade, requesting: { 2 })
    let error = #expect(throws: ContextError.self) { try root.tryRequest(.grade, as: Int.self) }
    #expect(
      error
        == .ambiguous(
          .requestable, name: "grade", context: "global/Scope",
          providers: ["global/Scope/Assignments", "global/Scope/Exams/Final"]))
    // Each subcontext sees its own.
    #expect(assignments.request(.grade) == 1)
    #expect(final.request(.grade) == 2)
  }

  @Test func theShallowestProviderOfABranchHidesDeeperOnes() {
    let root = makeRoot("Scope")
    let child = root.createSubcontext(named: "Child")
    let grandchild = child.createSubcontext(named: "Grandchild")
    child.addRequestable(.grade, requesting: { 1 })
    grandchild.addRequestable(.grade, requesting: { 2 })
    #expect(
      throws: ContextError.onlyBelow(
        .requestable, name: "grade", context: "global/Scope", provider: "global/Scope/Child")
    ) {
      try root.tryRequest(.grade, as: Int.self)
    }
  }

  @Test func providedAboveIsNeverAmbiguous() {
    let root = makeRoot("Scope")
    let middle = root.createSubcontext(named: "Middle")
    let left = middle.createSubcontext(named: "Left")
    let right = middle.createSubcontext(named: "Right")
    left.addRequestable(.grade, requesting: { 1 })
    right.addRequestable(.grade, requesting: { 2 })
    root.addRequestable(.grade, requesting: { 0 })
    // Middle sees root's requestable above it; the two below do not make it ambiguous.
    #expect(middle.request(.grade) == 0)
  }

  @Test func theNearestProviderWins() {
    let root = makeRoot("Scope")
    let child = root.createSubcontext(named: "Child")
    let grandchild = child.createSubcontext(named: "Grandchild")
    root.addRequestable(.basis, requesting: { "percent" })
    child.addRequestable(.basis, requesting: { "points" })
    #expect(grandchild.request(.basis) == "points")
    #expect(child.request(.basis) == "points")
    #expect(root.request(.basis) == "percent")
  }

  @Test func theProviderRunsOnEveryRequest() {
    let root = makeRoot("Scope")
    var calls = 0
    root.addRequestable(
      .grade,
      requesting: {
        calls += 1
        return calls
      })
    #expect(root.request(.grade) == 1)
    #expect(root.request(.grade) == 2)
  }

  @Test func theValueIsTypedByTheCaller() throws {
    let root = makeRoot("Scope")
    let weight: Double? = nil
    root.addRequestable(.grade, requesting: { weight })
    let requested: Double? = root.request(.grade)
    #expect(requested == nil)
    #expect(
      throws: ContextError.typeMismatch(
        name: "grade", context: "global/Scope", addedOn: "global/Scope",
        provides: "Optional<Double>", requested: "Int")
    ) {
      try root.tryRequest(.grade, as: Int.self)
    }
  }

  @Test func removingARequestableHidesIt() {
    let root = makeRoot("Scope")
    root.addRequestable(.grade, requesting: { 1 })
    #expect(root.removeRequestable(.grade))
    #expect(!root.removeRequestable(.grade))
    #expect(!root.isRequestable(.grade))
  }

  @Test func contextsAndTheObjectsTheirRequestablesUseAreFreed() {
    final class Field {
      var weight = 40.0
    }
    let lifetimes = LifetimeTracker()
    do {
      let root = lifetimes.track(makeRoot("Scope"))
      let child = lifetimes.track(root.createSubcontext(named: "Child"))
      let field = lifetimes.track(Field())
      root.addRequestable(
        .grade, requesting: { [unowned field] in field.weight }, expiresWith: field)
      #expect(child.request(.grade) == 40.0)
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}
