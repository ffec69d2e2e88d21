import Foundation
import Testing
import WeftCore

@testable import WeftContexts

extension Requestable.Name {
  fileprivate static let courseTitle = Requestable.Name("course-title")
}

extension Notification.Name {
  fileprivate static let lifetimeChanged = Notification.Name("lifetime-changed")
}

/// Lifetimes as ProContext has them: a subcontext holds its supercontext strongly, a
/// supercontext holds its subcontexts weakly.
@Suite("Context lifetimes")
@MainActor
struct ContextLifetimeTests {
  /// Builds global → A → B → C, adds a requestable on A, tracks all three, and returns only
  /// C: when this returns, nothing but C (and the weak tracker) refers to the chain.
  private func makeChain(tracking lifetimes: LifetimeTracker) -> Context {
    let a = Context.global.createSubcontext(named: "LifetimeA")
    a.componentRegistry = ComponentRegistry()
    a.addRequestable(.courseTitle, requesting: { "COP101" })
    let b = a.createSubcontext(named: "B")
    let c = b.createSubcontext(named: "C")
    lifetimes.track(a, "A")
    lifetimes.track(b, "B")
    lifetimes.track(c, "C")
    return c
  }

  @Test func keepingOnlyALeafKeepsItsWholeChain() throws {
    let lifetimes = LifetimeTracker()
    let c = makeChain(tracking: lifetimes)
    #expect(lifetimes.survivors == ["A", "B", "C"])
    #expect(c.path == "global/LifetimeA/B/C")
    let title: String = try c.tryRequest(.courseTitle)
    #expect(title == "COP101")
  }

  @Test func releasingTheLeafReleasesTheChain() {
    let lifetimes = LifetimeTracker()
    var c: Context? = makeChain(tracking: lifetimes)
    #expect(lifetimes.survivors == ["A", "B", "C"])
    #expect(c?.supercontext?.supercontext?.name == "LifetimeA")
    c = nil
    #expect(lifetimes.survivors.isEmpty)
    #expect(!Context.global.subcontexts.contains { $0.name == "LifetimeA" })
  }

  @Test func aSupercontextDoesNotKeepItsSubcontexts() {
    let lifetimes = LifetimeTracker()
    let root = makeRoot("Lifetimes")
    do {
      let child = lifetimes.track(root.createSubcontext(named: "Child"))
      lifetimes.track(child.createSubcontext(named: "Grandchild"))
    }
    #expect(lifetimes.survivors.isEmpty)
    #expect(root.subcontexts.isEmpty)
  }

  @Test func aTreeWithContextualsOnEveryLevelIsFreedFromItsLeaf() {
    final class Owner {}
    let lifetimes = LifetimeTracker()
    var leaf: Context?
    do {
      let owner = lifetimes.track(Owner())
      let top = lifetimes.track(makeRoot("Lifetimes"))
      let middle = lifetimes.track(top.createSubcontext(named: "Middle"))
      leaf = lifetimes.track(middle.createSubcontext(named: "Leaf"))
      top.addRequestable(.courseTitle, requesting: { [unowned top] in top.name })
      top.addObserver(.lifetimeChanged, calling: { [unowned middle] _ in _ = middle.name })
      middle.addObserver(.lifetimeChanged, calling: { _ in }, expiresWith: owner)
      middle.setFlag(Flag.Name("busy"))
      leaf?.addExecutable(Executable.Name("run"), executing: {})
      leaf?.post(name: .lifetimeChanged)
    }
    #expect(leaf?.request(.courseTitle) == "Lifetimes")
    #expect(lifetimes.survivors == ["Context", "Context", "Context"])
    leaf = nil
    #expect(lifetimes.survivors.isEmpty)
  }

  @Test func aViewKeepsTheChainOfItsContext() {
    let lifetimes = LifetimeTracker()
    var view: LabelView?
    do {
      let top = lifetimes.track(makeRoot("Lifetimes"))
      let leaf = lifetimes.track(top.createSubcontext(named: "Leaf"))
      top.addRequestable(.courseTitle, requesting: { "kept" })
      view = lifetimes.track(LabelView("Label"))
      view?.link(to: leaf)
    }
    #expect(lifetimes.survivors.count == 3)
    view = nil
    #expect(lifetimes.survivors.isEmpty)
  }
}
