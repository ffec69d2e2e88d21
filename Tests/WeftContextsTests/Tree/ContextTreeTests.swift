import Testing
import WeftCore

@testable import WeftContexts

/// A context subclass for `createSubcontext(ofType:)`.
private final class SectionContext: Context, DefaultInitializableContext {
  var madeInInit = false

  override init() {
    super.init()
    madeInInit = true
  }
}

@Suite("Context tree")
@MainActor
struct ContextTreeTests {
  @Test func globalIsTheRoot() {
    #expect(Context.global.supercontext == nil)
    #expect(Context.global.path == "global")
    #expect(Context.global === Context.global)
  }

  @Test func subcontextsKnowTheirSupercontextAndPath() {
    let lifetimes = LifetimeTracker()
    do {
      let root = lifetimes.track(makeRoot("Tree"))
      let child = lifetimes.track(root.createSubcontext(named: "Child"))
      let grandchild = lifetimes.track(child.createSubcontext(named: "Grandchild"))
      #expect(child.supercontext === root)
      #expect(grandchild.supercontext === child)
      #expect(grandchild.path == "global/Tree/Child/Grandchild")
      #expect(root.subcontexts.map(\.name) == ["Child"])
      #expect(child.subcontexts.first === grandchild)
    }
    #expect(lifetimes.survivors.isEmpty)
  }

  @Test func createSubcontextOfTypeNamesItAfterTheType() {
    let lifetimes = LifetimeTracker()
    do {
      let root = lifetimes.track(makeRoot("Tree"))
      let section = lifetimes.track(root.createSubcontext(ofType: SectionContext.self))
      let named = lifetimes.track(
        root.createSubcontext(ofType: SectionContext.self, named: "Exams"))
      #expect(section.madeInInit)
      #expect(section.path == "global/Tree/SectionContext")
      #expect(named.path == "global/Tree/Exams")
      #expect(root.subcontexts.count == 2)
    }
    #expect(lifetimes.survivors.isEmpty)
  }

  @Test func aSubcontextNobodyHoldsIsReleased() {
    let root = makeRoot("Tree")
    weak var released: Context?
    do {
      let temporary = root.createSubcontext(named: "Temporary")
      released = temporary
      #expect(root.subcontexts.count == 1)
    }
    #expect(released == nil)
    #expect(root.subcontexts.isEmpty)
  }

  @Test func aSubcontextHoldsItsSupercontextStrongly() {
    weak var weakRoot: Context?
    var child: Context?
    do {
      let root = makeRoot("Tree")
      weakRoot = root
      child = root.createSubcontext(named: "Child")
    }
    #expect(weakRoot != nil)
    #expect(child?.supercontext === weakRoot)
    #expect(child?.path == "global/Tree/Child")
    child = nil
    #expect(weakRoot == nil)
  }

  @Test func manyReleasedSubcontextsAreCompactedAway() {
    let root = makeRoot("Tree")
    let kept = root.createSubcontext(named: "Kept")
    for index in 0..<100 { _ = root.createSubcontext(named: "Temporary \(index)") }
    #expect(root.subcontexts.map(\.name) == ["Kept"])
    #expect(root.subcontextRefs.count < 32)
    _ = kept
  }

  @Test func aDetachedContextIsItsOwnRoot() {
    let detached = Context(named: "Detached")
    #expect(detached.supercontext == nil)
    #expect(detached.path == "Detached")
    let plain = Context()
    #expect(plain.name == "Context")
  }

  @Test func theRegistryIsInheritedFromTheSupercontext() {
    let root = makeRoot("Tree")
    let registry = root.componentRegistry
    let child = root.createSubcontext(named: "Child")
    #expect(child.componentRegistry === registry)
    #expect(Context.global.componentRegistry === ComponentRegistry.shared)
  }
}
