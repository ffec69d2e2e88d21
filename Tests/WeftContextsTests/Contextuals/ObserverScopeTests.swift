import Foundation
import Testing

@testable import WeftContexts

extension Notification.Name {
  fileprivate static let changed = Notification.Name("changed")
  fileprivate static let other = Notification.Name("other")
}

/// The scope of an observer: posts from anywhere in its context-tree (at, below, above).
@Suite("Observer scope")
@MainActor
struct ObserverScopeTests {
  /// root ─ parent ─ poster ─ child ─ grandchild, plus parent ─ sibling ─ nephew.
  @MainActor
  final class Tree {
    let root = makeRoot("Observers")
    let parent: Context
    let poster: Context
    let child: Context
    let grandchild: Context
    let sibling: Context
    let nephew: Context
    var heard: [String] = []

    init() {
      parent = root.createSubcontext(named: "Parent")
      poster = parent.createSubcontext(named: "Poster")
      child = poster.createSubcontext(named: "Child")
      grandchild = child.createSubcontext(named: "Grandchild")
      sibling = parent.createSubcontext(named: "Sibling")
      nephew = sibling.createSubcontext(named: "Nephew")
    }

    func observeEverywhere() {
      for context in [root, parent, poster, child, grandchild, sibling, nephew] {
        let name = context.name
        context.addObserver(.changed, calling: { [unowned self] _ in heard.append(name) })
      }
    }
  }

  @Test func aPostReachesTheWholeContextTreeButNotSiblings() {
    let tree = Tree()
    tree.observeEverywhere()
    tree.poster.post(name: .changed)
    // At, then above nearest first, then below depth-first.
    #expect(tree.heard == ["Poster", "Parent", "Observers", "Child", "Grandchild"])
  }

  @Test func aPostFromAboveReachesEveryContextBelow() {
    let tree = Tree()
    tree.observeEverywhere()
    tree.parent.post(name: .changed)
    #expect(
      tree.heard == ["Parent", "Observers", "Poster", "Child", "Grandchild", "Sibling", "Nephew"])
  }

  @Test func aPostFromBelowReachesTheObserverAbove() {
    let tree = Tree()
    var objects: [Int] = []
    tree.parent.addObserver(.changed, calling: { objects.append($0.object as? Int ?? -1) })
    tree.grandchild.post(name: .changed, object: 7)
    tree.nephew.post(name: .changed, object: 8)
    #expect(objects == [7, 8])
  }

  @Test func theNotificationCarriesNameObjectAndUserInfo() {
    let tree = Tree()
    var received: Notification?
    tree.poster.addObserver(.changed, calling: { received = $0 })
    tree.poster.post(name: .changed, object: "weight", userInfo: ["value": 40])
    #expect(received?.name == .changed)
    #expect(received?.object as? String == "weight")
    #expect(received?.userInfo?["value"] as? Int == 40)
  }

  @Test func otherNamesAreNotDelivered() {
    let tree = Tree()
    tree.observeEverywhere()
    tree.poster.post(name: .other)
    #expect(tree.heard.isEmpty)
  }

  @Test func anObserverWhoseConditionFailsIsSkipped() {
    let tree = Tree()
    var enabled = false
    var calls = 0
    tree.poster.addObserver(.changed, calling: { _ in calls += 1 }, if: { enabled })
    tree.poster.post(name: .changed)
    enabled = true
    tree.poster.post(name: .changed)
    #expect(calls == 1)
  }

  @Test func observersAddedDuringAPostWaitForTheNextOne() {
    let tree = Tree()
    var calls = 0
    tree.poster.addObserver(
      .changed,
      calling: { [unowned tree] _ in
        tree.child.addObserver(.changed, calling: { _ in calls += 1 })
      })
    tree.poster.post(name: .changed)
    #expect(calls == 0)
    tree.child.removeObserver(.changed)
  }

  @Test func anObserverThatExpiresDuringThePostIsSkipped() {
    let tree = Tree()
    final class Owner {}
    var owner: Owner? = Owner()
    var calls = 0
    tree.poster.addObserver(.changed, calling: { _ in owner = nil })
    tree.child.addObserver(.changed, calling: { _ in calls += 1 }, expiresWith: owner!)
    tree.poster.post(name: .changed)
    #expect(calls == 0)
  }

  @Test func postsSkipSubtreesWithoutObservers() {
    let tree = Tree()
    tree.grandchild.addObserver(.changed, calling: { _ in })
    #expect(tree.root.observersInSubtree == 1)
    #expect(tree.poster.observersInSubtree == 1)
    #expect(tree.sibling.observersInSubtree == 0)
    tree.grandchild.removeObserver(.changed)
    #expect(tree.root.observersInSubtree == 0)
  }

  @Test func observerCountsOfReleasedSubcontextsHealOnTheNextPost() {
    let root = makeRoot("Observers")
    do {
      let temporary = root.createSubcontext(named: "Temporary")
      temporary.addObserver(.changed, calling: { _ in })
      #expect(root.observersInSubtree == 1)
    }
    #expect(root.observersInSubtree == 1)  // an upper bound until a post walks past
    root.post(name: .changed)
    #expect(root.observersInSubtree == 0)
  }

  @Test func aSubcontextMadeWithObserversCountsThemWhenAttached() {
    final class Watching: Context, DefaultInitializableContext {
      override init() {
        super.init()
        addObserver(.changed, calling: { _ in }, expiresWith: self)
      }
    }
    let root = makeRoot("Observers")
    let watching = root.createSubcontext(ofType: Watching.self)
    #expect(root.observersInSubtree == 1)
    _ = watching
  }

  @Test func theTreeAndItsObserversAreFreed() {
    let lifetimes = LifetimeTracker()
    do {
      let tree = lifetimes.track(Tree())
      for context in [tree.root, tree.parent, tree.poster, tree.child, tree.grandchild] {
        lifetimes.track(context, context.name)
      }
      tree.observeEverywhere()
      tree.poster.post(name: .changed)
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}
