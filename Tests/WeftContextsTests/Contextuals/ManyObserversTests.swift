import Foundation
import Testing

@testable import WeftContexts

extension Notification.Name {
  fileprivate static let weightChanged = Notification.Name("weight-changed")
  fileprivate static let other = Notification.Name("other")
}

/// Many observers per notification name, as ProContext has them: adding appends, each
/// observer expires on its own, and a post reaches every live one once, in the order added.
@Suite("Many observers per name")
@MainActor
struct ManyObserversTests {
  final class Owner {}

  @Test func severalObserversOfOneNameAreCalledOnceEachInTheOrderAdded() {
    let root = makeRoot("Observers")
    var heard: [String] = []
    for field in ["total", "each", "count", "summary"] {
      root.addObserver(.weightChanged, calling: { _ in heard.append(field) })
    }
    root.post(name: .weightChanged)
    #expect(heard == ["total", "each", "count", "summary"])
    root.post(name: .weightChanged)
    #expect(heard == ["total", "each", "count", "summary", "total", "each", "count", "summary"])
    #expect(root.observers[.weightChanged]?.count == 4)
    #expect(root.observersInSubtree == 4)
  }

  @Test func everyAddVariantAppendsAndNoneThrows() throws {
    let root = makeRoot("Observers")
    let owner = Owner()
    let view = LabelView("Field")
    let window = ContextWindow()
    window.attach(view)
    var heard: [Int] = []
    root.addObserver(.weightChanged, calling: { _ in heard.append(1) })
    root.addObserver(.weightChanged, calling: { _ in heard.append(2) }, if: { true })
    root.addObserver(.weightChanged, calling: { _ in heard.append(3) }, expiresWith: owner)
    root.addObserver(.weightChanged, calling: { _ in heard.append(4) }, ifAttached: view)
    try root.tryAddObserver(.weightChanged, calling: { _ in heard.append(5) })
    try root.tryAddObserver(.weightChanged, calling: { _ in heard.append(6) }, expiresWith: owner)
    try root.tryAddObserver(.weightChanged, calling: { _ in heard.append(7) }, ifAttached: view)
    root.post(name: .weightChanged)
    #expect(heard == [1, 2, 3, 4, 5, 6, 7])
    _ = (owner, view, window)
  }

  @Test func eachObserverExpiresOnItsOwnCondition() {
    let root = makeRoot("Observers")
    var firstExpired = false
    var thirdExpired = false
    var heard: [String] = []
    root.addObserver(
      .weightChanged, calling: { _ in heard.append("a") }, expiresIf: { firstExpired })
    root.addObserver(.weightChanged, calling: { _ in heard.append("b") })
    root.addObserver(
      .weightChanged, calling: { _ in heard.append("c") }, expiresIf: { thirdExpired })
    root.post(name: .weightChanged)
    #expect(heard == ["a", "b", "c"])

    heard = []
    firstExpired = true
    root.post(name: .weightChanged)
    #expect(heard == ["b", "c"])
    #expect(root.observers[.weightChanged]?.count == 2)  // the expired one was removed

    heard = []
    thirdExpired = true
    root.post(name: .weightChanged)
    #expect(heard == ["b"])
    #expect(root.observersInSubtree == 1)
  }

  @Test func eachObserverExpiresWithItsOwnObject() {
    let root = makeRoot("Observers")
    var first: Owner? = Owner()
    var second: Owner? = Owner()
    var heard: [String] = []
    root.addObserver(.weightChanged, calling: { _ in heard.append("first") }, expiresWith: first!)
    root.addObserver(.weightChanged, calling: { _ in heard.append("second") }, expiresWith: second!)
    root.addObserver(.weightChanged, calling: { _ in heard.append("plain") })
    second = nil
    root.post(name: .weightChanged)
    #expect(heard == ["first", "plain"])
    heard = []
    first = nil
    root.post(name: .weightChanged)
    #expect(heard == ["plain"])
    #expect(root.observers[.weightChanged]?.count == 1)
    #expect(root.observersInSubtree == 1)
  }

  @Test func anObserverWhoseConditionFailsIsSkippedWhileTheOthersAreCalled() {
    let root = makeRoot("Observers")
    var enabled = false
    var heard: [String] = []
    root.addObserver(.weightChanged, calling: { _ in heard.append("gated") }, if: { enabled })
    root.addObserver(.weightChanged, calling: { _ in heard.append("always") })
    root.post(name: .weightChanged)
    enabled = true
    root.post(name: .weightChanged)
    #expect(heard == ["always", "gated", "always"])
  }

  @Test func anObserverExpiredOrRemovedByAnEarlierOneDuringAPostIsNotCalled() {
    let root = makeRoot("Observers")
    let child = root.createSubcontext(named: "Child")
    var owner: Owner? = Owner()
    var heard: [String] = []
    root.addObserver(
      .weightChanged,
      calling: { [weak child] _ in
        heard.append("first")
        owner = nil
        child?.removeObserver(.weightChanged)
      })
    root.addObserver(.weightChanged, calling: { _ in heard.append("expired") }, expiresWith: owner!)
    root.addObserver(.weightChanged, calling: { _ in heard.append("last") })
    child.addObserver(.weightChanged, calling: { _ in heard.append("removed") })
    root.post(name: .weightChanged)
    #expect(heard == ["first", "last"])
    root.post(name: .weightChanged)
    #expect(heard == ["first", "last", "first", "last"])
    #expect(root.observers[.weightChanged]?.count == 2)
    #expect(root.observersInSubtree == 2)
  }

  @Test func aPostFromASubcontextReachesEveryObserverAboveInScopeOrder() {
    // root ─ form ─ category ─ field, and form ─ sibling: a post from `category` reaches
    // category's, then form's, then root's, then field's observers — never sibling's.
    let root = makeRoot("Observers")
    let form = root.createSubcontext(named: "Form")
    let category = form.createSubcontext(named: "Category")
    let field = category.createSubcontext(named: "Field")
    let sibling = form.createSubcontext(named: "Sibling")
    var heard: [String] = []
    for (context, labels) in [
      (field, ["field 1", "field 2"]), (sibling, ["sibling 1", "sibling 2"]),
      (root, ["root 1", "root 2"]), (form, ["form 1", "form 2", "form 3"]),
      (category, ["category 1", "category 2"]),
    ] {
      for label in labels {
        context.addObserver(.weightChanged, calling: { _ in heard.append(label) })
      }
    }
    category.post(name: .weightChanged)
    #expect(
      heard == [
        "category 1", "category 2", "form 1", "form 2", "form 3", "root 1", "root 2", "field 1",
        "field 2",
      ])
  }

  @Test func removeObserverRemovesEveryObserverOfTheNameOnThatContextOnly() {
    let root = makeRoot("Observers")
    let child = root.createSubcontext(named: "Child")
    var heard: [String] = []
    root.addObserver(.weightChanged, calling: { _ in heard.append("root") })
    child.addObserver(.weightChanged, calling: { _ in heard.append("child 1") })
    child.addObserver(.weightChanged, calling: { _ in heard.append("child 2") })
    child.addObserver(.other, calling: { _ in heard.append("other") })
    #expect(root.observersInSubtree == 4)
    #expect(child.removeObserver(.weightChanged))
    #expect(!child.removeObserver(.weightChanged))
    #expect(root.observersInSubtree == 2)
    child.post(name: .weightChanged)
    child.post(name: .other)
    #expect(heard == ["root", "other"])
  }

  @Test func observerCountsOfAReleasedSubcontextWithManyObserversHealOnTheNextPost() {
    let root = makeRoot("Observers")
    do {
      let temporary = root.createSubcontext(named: "Temporary")
      for _ in 0..<3 { temporary.addObserver(.weightChanged, calling: { _ in }) }
      #expect(root.observersInSubtree == 3)
    }
    root.post(name: .weightChanged)
    #expect(root.observersInSubtree == 0)
  }

  @Test func contextsAndObserverOwnersAreFreed() {
    let lifetimes = LifetimeTracker()
    do {
      let root = lifetimes.track(makeRoot("Observers"))
      let owner = lifetimes.track(Owner())
      for _ in 0..<3 {
        root.addObserver(
          .weightChanged, calling: { [unowned owner] _ in _ = owner }, expiresWith: owner)
      }
      root.post(name: .weightChanged)
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}
