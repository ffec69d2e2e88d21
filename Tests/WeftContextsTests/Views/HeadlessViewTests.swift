import Testing
import WeftCore

@testable import WeftContexts

/// Windows, the view hierarchy and rendering on attach.
@Suite("Headless views")
@MainActor
struct HeadlessViewTests {
  @Test func attachingRendersOnceParentsBeforeChildren() {
    let window = ContextWindow()
    let form = LabelView("Form")
    let field = LabelView("Field")
    form.addSubview(field)
    #expect(form.renderCount == 0)  // not attached: no render
    window.attach(form)
    #expect(form.renderings == ["Form"])
    #expect(field.renderings == ["Field"])
    #expect(window.renderCount == 2)
    #expect(window.viewCount == 2)
    #expect(field.window === window)
    #expect(field.superview === form)
  }

  @Test func addingASubviewToAnAttachedViewAttachesIt() {
    let window = ContextWindow()
    let form = LabelView("Form")
    window.attach(form)
    let field = LabelView("Field")
    form.addSubview(field)
    #expect(field.isAttached)
    #expect(field.renderCount == 1)
    #expect(window.viewCount == 2)
  }

  @Test func detachingDetachesTheSubtree() {
    let window = ContextWindow()
    let form = LabelView("Form")
    let field = LabelView("Field")
    let hint = LabelView("Hint")
    form.addSubview(field)
    field.addSubview(hint)
    window.attach(form)
    window.detach(form)
    #expect(!form.isAttached && !field.isAttached && !hint.isAttached)
    #expect(window.viewCount == 0)
    #expect(window.rootViews.isEmpty)
    #expect(hint.superview === field)  // the subtree stays together
  }

  @Test func removingASubviewKeepsItsSiblingsInPlace() {
    let window = ContextWindow()
    let form = LabelView("Form")
    let views = (0..<4).map { LabelView("Field \($0)") }
    for view in views { form.addSubview(view) }
    window.attach(form)
    views[1].removeFromSuperview()
    #expect(form.subviews.map(\.viewName) == ["Field 0", "Field 3", "Field 2"])
    views[3].removeFromSuperview()
    views[0].removeFromSuperview()
    #expect(form.subviews.map(\.viewName) == ["Field 2"])
    #expect(window.viewCount == 2)
  }

  @Test func attachingMovesAViewFromWhereverItWas() {
    let first = ContextWindow(name: "first")
    let second = ContextWindow(name: "second")
    let form = LabelView("Form")
    let field = LabelView("Field")
    first.attach(form)
    form.addSubview(field)
    second.attach(field)
    #expect(form.subviews.isEmpty)
    #expect(field.window === second)
    #expect(second.rootViews.count == 1)
    #expect(first.viewCount == 1 && second.viewCount == 1)
    first.detach(field)  // not attached to `first`: nothing happens
    #expect(field.window === second)
  }

  @Test func aDetachedViewSkipsWillChange() {
    let root = makeRoot("Views")
    let context = root.createSubcontext(named: "Label")
    let view = LabelView("Label")
    view.link(to: context)
    context.signalWillChange()
    #expect(view.renderCount == 0)
    let window = ContextWindow()
    window.attach(view)
    context.signalWillChange()
    #expect(view.renderCount == 2)  // attach + signal
    #expect(context.willChangeCount == 2)
  }

  @Test func detachAllEmptiesTheWindow() {
    let window = ContextWindow()
    for index in 0..<5 { window.attach(LabelView("View \(index)")) }
    #expect(window.viewCount == 5)
    window.detachAll()
    #expect(window.viewCount == 0)
  }

  @Test func aWindowCountsOnlyTheRendersMadeWhileAttachedToIt() {
    let first = ContextWindow(name: "first")
    let second = ContextWindow(name: "second")
    let form = LabelView("Form")
    let field = LabelView("Field")
    form.renderNow()  // detached: no window counts it
    form.addSubview(field)
    first.attach(form)  // 2 attach renders
    field.renderNow()
    #expect(first.renderCount == 3)
    second.attach(field)  // moved: detached from `first`, attached (and rendered) in `second`
    #expect(field.renderCount == 3)
    #expect(first.renderCount == 3)  // its renders in `first` stay counted there
    #expect(second.renderCount == 1)
    field.renderNow()
    form.renderNow()
    #expect(first.renderCount == 4)
    #expect(second.renderCount == 2)
    first.detachAll()
    form.renderNow()  // detached again
    #expect(first.renderCount == 4)
    first.attach(form)  // renders on attach
    #expect(first.renderCount == 5)
    #expect(form.renderCount == 5)
  }

  @Test func aViewInNoTreeNeedsNoSideObject() {
    // The simulator's counting views: attached to a window, unnamed, unlinked.
    let window = ContextWindow()
    let view = UnnamedView()
    window.attach(view)
    #expect(view.attachment.name == nil)
    #expect(view.superview == nil)
    #expect(view.subviews.isEmpty)
    #expect(!view.attachment.hasLinks)
    view.removeFromSuperview()
    #expect(!view.attachment.hasLinks)
    #expect(window.viewCount == 0)
  }

  @Test func aViewAttachmentStaysSmall() {
    // Stored inline in every view (the simulator attaches a million): the render count,
    // the window, the index and one reference to what only trees and linked views use.
    #expect(MemoryLayout<ViewAttachment>.size <= 32)
  }

  @Test func releasedViewsAreFreed() {
    let lifetimes = LifetimeTracker()
    do {
      let window = lifetimes.track(ContextWindow())
      let form = lifetimes.track(LabelView("Form"))
      let field = lifetimes.track(LabelView("Field"))
      form.addSubview(field)
      window.attach(form)
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}

/// The 1:1 view↔context link and what the component registry sees.
@Suite("View–context link")
@MainActor
struct ViewContextLinkTests {
  @Test func aLinkIsRegisteredWithBothNames() {
    let root = makeRoot("Link")
    let registry = root.componentRegistry
    let context = root.createSubcontext(named: "Profile")
    let view = LabelView("ProfileView")
    view.link(to: context)
    #expect(view.linkedContext === context)
    #expect(registry.components(of: .view).map(\.name) == ["ProfileView"])
    #expect(registry.components(of: .context).map(\.name) == ["global/Link/Profile"])
    #expect(registry.violations().isEmpty)
  }

  @Test func aSecondContextOnOneViewIsReportedWithBothNames() {
    let root = makeRoot("Link")
    let registry = root.componentRegistry
    let profile = root.createSubcontext(named: "Profile")
    let orders = root.createSubcontext(named: "Orders")
    let view = LabelView("Dashboard")
    view.link(to: profile)
    view.link(to: orders)
    #expect(
      registry.violations() == [
        .viewHasSeveralContexts(
          view: "Dashboard", contexts: ["global/Link/Profile", "global/Link/Orders"])
      ])
    #expect(
      registry.violations().first?.description
        == "view 'Dashboard' is linked to 2 contexts ('global/Link/Profile', "
        + "'global/Link/Orders'); a view has exactly one context: compose the others into it")
    view.unlink(from: orders)
    #expect(registry.violations().isEmpty)
  }

  @Test func linkingTwiceToTheSameContextIsOneLink() throws {
    let root = makeRoot("Link")
    let context = root.createSubcontext(named: "Profile")
    let view = LabelView("ProfileView")
    view.link(to: context)
    try view.tryLink(to: context)
    #expect(root.componentRegistry.violations().isEmpty)
  }

  @Test func aContextWhoseViewWasReleasedTakesANewOne() throws {
    let root = makeRoot("Link")
    let context = root.createSubcontext(named: "Profile")
    do {
      let first = LabelView("First")
      first.link(to: context)
    }
    let second = LabelView("Second")
    try second.tryLink(to: context)
    #expect(context.linkedView === second)
  }

  @Test func unlinkingLetsAnotherViewLink() throws {
    let root = makeRoot("Link")
    let context = root.createSubcontext(named: "Profile")
    let first = LabelView("First")
    first.link(to: context)
    first.unlink(from: context)
    #expect(first.linkedContext == nil)
    let second = LabelView("Second")
    try second.tryLink(to: context)
  }

  @Test func releasedViewsAndContextsLeaveTheRegistry() {
    let root = makeRoot("Link")
    let registry = root.componentRegistry
    let lifetimes = LifetimeTracker()
    do {
      let context = lifetimes.track(root.createSubcontext(named: "Profile"))
      let view = lifetimes.track(LabelView("ProfileView"))
      view.link(to: context)
      #expect(registry.components(of: .view).count == 1)
    }
    #expect(lifetimes.survivors.isEmpty)
    #expect(registry.components(of: .view).isEmpty)
    #expect(registry.components(of: .context).isEmpty)
  }

  @Test func aViewKeepsItsContext() {
    let root = makeRoot("Link")
    weak var weakContext: Context?
    var view: LabelView? = LabelView("View")
    do {
      let context = root.createSubcontext(named: "Owned")
      weakContext = context
      view!.link(to: context)
    }
    #expect(weakContext != nil)
    view = nil
    #expect(weakContext == nil)
  }
}

/// A view with no name, as the simulator's counting views are.
@MainActor
private final class UnnamedView: HeadlessView {
  var attachment = ViewAttachment()
  func render() -> Int { renderCount }
}
