import Foundation
import Testing

@testable import WeftContexts

extension Requestable.Name {
  fileprivate static let grade = Requestable.Name("grade")
}

extension Notification.Name {
  fileprivate static let changed = Notification.Name("changed")
}

extension Executable.Name {
  fileprivate static let swap = Executable.Name("swap")
}

/// Conditions, expiry and replacement of contextuals.
@Suite("Expiry")
@MainActor
struct ExpiryTests {
  final class Owner {}

  // MARK: Conditions

  @Test func aRequestableIsUsableOnlyWhileItsConditionHolds() throws {
    let root = makeRoot("Traps")
    let form = root.createSubcontext(named: "Form")
    var open = false
    root.addRequestable(.grade, requesting: { 90 }, if: { open })
    #expect(!form.isRequestable(.grade))
    let error = #expect(throws: ContextError.self) { try form.tryRequest(.grade, as: Int.self) }
    #expect(error?.description == Messages.conditionFailed)
    open = true
    #expect(try form.tryRequest(.grade, as: Int.self) == 90)
  }

  // MARK: expiresIf

  @Test func anExpiredRequestableIsGone() {
    let root = makeRoot("Expiry")
    var expired = false
    root.addRequestable(.grade, requesting: { 1 }, expiresIf: { expired })
    #expect(root.request(.grade) == 1)
    expired = true
    #expect(throws: ContextError.notFound(.requestable, name: "grade", context: "global/Expiry")) {
      try root.tryRequest(.grade, as: Int.self)
    }
    #expect(root.requestables.isEmpty)  // removed when met
  }

  @Test func anExpiredRequestableUncoversTheOneAbove() {
    let root = makeRoot("Expiry")
    let child = root.createSubcontext(named: "Child")
    var expired = false
    root.addRequestable(.grade, requesting: { "root" })
    child.addRequestable(.grade, requesting: { "child" }, expiresIf: { expired })
    #expect(child.request(.grade) == "child")
    expired = true
    #expect(child.request(.grade) == "root")
  }

  @Test func conditionAndExpiryCombine() {
    let root = makeRoot("Expiry")
    var open = true
    var expired = false
    root.addRequestable(.grade, requesting: { 1 }, if: { open }, expiresIf: { expired })
    #expect(root.isRequestable(.grade))
    open = false
    #expect(!root.isRequestable(.grade))
    expired = true
    #expect(throws: ContextError.notFound(.requestable, name: "grade", context: "global/Expiry")) {
      try root.tryRequest(.grade, as: Int.self)
    }
  }

  // MARK: expiresWith

  @Test func aRequestableExpiresWithItsObject() {
    let root = makeRoot("Expiry")
    var owner: Owner? = Owner()
    root.addRequestable(.grade, requesting: { 1 }, expiresWith: owner!)
    #expect(root.isRequestable(.grade))
    owner = nil
    #expect(!root.isRequestable(.grade))
  }

  @Test func anObserverExpiresWithItsObject() {
    let root = makeRoot("Expiry")
    var owner: Owner? = Owner()
    var calls = 0
    root.addObserver(.changed, calling: { _ in calls += 1 }, expiresWith: owner!)
    root.post(name: .changed)
    owner = nil
    root.post(name: .changed)
    #expect(calls == 1)
    #expect(root.observers.isEmpty)
    #expect(root.observersInSubtree == 0)
  }

  @Test func anExecutableExpiresWithItsObject() {
    let root = makeRoot("Expiry")
    var owner: Owner? = Owner()
    root.addExecutable(.swap, executing: {}, expiresWith: owner!)
    #expect(root.isExecutable(.swap))
    owner = nil
    #expect(throws: ContextError.notFound(.executable, name: "swap", context: "global/Expiry")) {
      try root.tryExecute(.swap)
    }
  }

  @Test func anObserverAndAnExecutableExpireIf() {
    let root = makeRoot("Expiry")
    var expired = false
    var calls = 0
    root.addObserver(.changed, calling: { _ in calls += 1 }, expiresIf: { expired })
    root.addExecutable(.swap, executing: { calls += 10 }, expiresIf: { expired })
    root.post(name: .changed)
    root.execute(.swap)
    expired = true
    root.post(name: .changed)
    #expect(!root.isExecutable(.swap))
    #expect(calls == 11)
  }

  // MARK: ifAttached

  @Test func ifAttachedHoldsWhileTheViewIsAttachedAndExpiresWithTheView() {
    let root = makeRoot("Expiry")
    let window = ContextWindow()
    var view: LabelView? = LabelView("Field")
    var observed = 0
    var executed = 0
    root.addRequestable(.grade, requesting: { 1 }, ifAttached: view!)
    root.addObserver(.changed, calling: { _ in observed += 1 }, ifAttached: view!)
    root.addExecutable(.swap, executing: { executed += 1 }, ifAttached: view!)

    #expect(!root.isRequestable(.grade))  // not attached yet
    #expect(!root.isExecutable(.swap))
    root.post(name: .changed)
    #expect(observed == 0)

    window.attach(view!)
    #expect(root.request(.grade) == 1)
    root.execute(.swap)
    root.post(name: .changed)
    #expect((observed, executed) == (1, 1))

    window.detach(view!)
    #expect(!root.isRequestable(.grade))
    root.post(name: .changed)
    #expect(observed == 1)

    view = nil  // released: expired, and so replaceable
    root.addRequestable(.grade, requesting: { 2 })
    #expect(root.request(.grade) == 2)
    root.addObserver(.changed, calling: { _ in })
    root.addExecutable(.swap, executing: {})
  }

  // MARK: Replacement

  @Test func addingUnderATakenNameReplacesOnlyAnExpiredOne() throws {
    let root = makeRoot("Traps")
    var owner: Owner? = Owner()
    root.addRequestable(.grade, requesting: { "old" }, expiresWith: owner!)
    let taken = #expect(throws: ContextError.self) {
      try root.tryAddRequestable(.grade, requesting: { "new" })
    }
    #expect(taken?.description == Messages.requestableTaken)
    #expect(root.request(.grade) == "old")
    owner = nil
    try root.tryAddRequestable(.grade, requesting: { "new" })
    #expect(root.request(.grade) == "new")
  }

  @Test func everyRequestableAndExecutableAddVariantRefusesATakenName() {
    let root = makeRoot("Traps")
    let owner = Owner()
    let view = LabelView("Field")
    root.addRequestable(.grade, requesting: { 1 })
    root.addExecutable(.swap, executing: {})
    let requestable = ContextError.nameTaken(.requestable, name: "grade", context: "global/Traps")
    let executable = ContextError.nameTaken(.executable, name: "swap", context: "global/Traps")
    #expect(throws: requestable) { try root.tryAddRequestable(.grade, requesting: { 2 }) }
    #expect(throws: requestable) {
      try root.tryAddRequestable(.grade, requesting: { 2 }, expiresWith: owner)
    }
    #expect(throws: requestable) {
      try root.tryAddRequestable(.grade, requesting: { 2 }, ifAttached: view)
    }
    #expect(throws: executable) { try root.tryAddExecutable(.swap, executing: {}) }
    #expect(throws: executable) {
      try root.tryAddExecutable(.swap, executing: {}, expiresWith: owner)
    }
    #expect(throws: executable) {
      try root.tryAddExecutable(.swap, executing: {}, ifAttached: view)
    }
    #expect(executable.description == Messages.executableTaken)
  }

  @Test func addingAnObserverRemovesTheExpiredOnesOfThatNameWithoutCountingTwice() throws {
    let root = makeRoot("Expiry")
    var expired = false
    root.addObserver(.changed, calling: { _ in }, expiresIf: { expired })
    root.addObserver(.changed, calling: { _ in })
    #expect(root.observersInSubtree == 2)
    expired = true
    try root.tryAddObserver(.changed, calling: { _ in })
    #expect(root.observers[.changed]?.count == 2)
    #expect(root.observersInSubtree == 2)
    #expect(root.ownObserverCount == 2)
  }

  @Test func contextsViewsAndOwnersAreFreed() {
    let lifetimes = LifetimeTracker()
    do {
      let root = lifetimes.track(makeRoot("Expiry"))
      let owner = lifetimes.track(Owner())
      let view = lifetimes.track(LabelView("Field"))
      let window = lifetimes.track(ContextWindow())
      window.attach(view)
      root.addRequestable(.grade, requesting: { 1 }, ifAttached: view)
      root.addObserver(.changed, calling: { _ in }, expiresWith: owner)
      root.addExecutable(.swap, executing: {}, expiresIf: { false })
      root.post(name: .changed)
      #expect(root.request(.grade) == 1)
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}
