import Testing
import WeftContexts

/// The throwing twins of the traps throw the pinned messages (the traps print the same
/// text, see `TrapTests`).
@Suite("Error messages")
@MainActor
struct ErrorMessageTests {
  @Test func notFound() {
    let root = makeRoot("Traps")
    let form = root.createSubcontext(named: "Form")
    let error = #expect(throws: ContextError.self) { try form.tryRequest("missing", as: Int.self) }
    #expect(error?.description == Messages.notFound)
  }

  @Test func onlyBelow() {
    let root = makeRoot("Traps")
    let form = root.createSubcontext(named: "Form")
    form.addRequestable("grade", requesting: { 1 })
    let error = #expect(throws: ContextError.self) { try root.tryRequest("grade", as: Int.self) }
    #expect(error?.description == Messages.onlyBelow)
  }

  @Test func typeMismatch() {
    let root = makeRoot("Traps")
    let form = root.createSubcontext(named: "Form")
    let grade: Double? = 1
    root.addRequestable("grade", requesting: { grade })
    let error = #expect(throws: ContextError.self) { try form.tryRequest("grade", as: Int.self) }
    #expect(error?.description == Messages.typeMismatch)
  }

  @Test func aSecondViewOnAContext() {
    let root = makeRoot("Traps")
    let profile = root.createSubcontext(named: "Profile")
    let first = LabelView("First")
    let second = LabelView("Second")
    first.link(to: profile)
    let error = #expect(throws: ContextError.self) { try second.tryLink(to: profile) }
    #expect(error?.description == Messages.contextHasAnotherView)
  }

  @Test func aViewInsideItself() {
    let outer = LabelView("Outer")
    let inner = LabelView("Inner")
    outer.addSubview(inner)
    let error = #expect(throws: ContextError.self) { try inner.tryAddSubview(outer) }
    #expect(error?.description == Messages.viewCycle)
    #expect(throws: ContextError.viewCycle(view: "Outer", subview: "Outer")) {
      try outer.tryAddSubview(outer)
    }
  }

  @Test func everyKindNamesItselfWithItsArticle() {
    #expect(
      ContextualKind.allCases.map(\.description) == [
        "requestable", "observer", "flag", "executable",
      ])
  }

  @Test func contextsAndViewsThatThrewAreFreed() {
    let lifetimes = LifetimeTracker()
    do {
      let root = lifetimes.track(makeRoot("Traps"))
      let profile = lifetimes.track(root.createSubcontext(named: "Profile"))
      let first = lifetimes.track(LabelView("First"))
      let second = lifetimes.track(LabelView("Second"))
      first.link(to: profile)
      #expect(throws: ContextError.self) { try second.tryLink(to: profile) }
      #expect(throws: ContextError.self) { try profile.tryRequest("missing", as: Int.self) }
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}
