import Testing
import WeftCore

@testable import WeftContexts

/// Composite contexts: one context for a complex view, composing others.
@Suite("Composite contexts")
@MainActor
struct CompositeContextTests {
  @Test func aCompositeForwardsTheChangesOfItsPartsToItsOneView() async {
    let root = makeRoot("Composite")
    let registry = root.componentRegistry
    let profileClient = ProfileClient()
    let ordersClient = LedgerClient(name: "Orders")
    let dashboard = CompositeContext(named: "Dashboard", in: root)
    let profile = dashboard.compose(
      ClientContext(client: profileClient, named: "Profile", in: nil))
    let orders = dashboard.compose(
      ClientContext(client: ordersClient, named: "Orders", in: dashboard))
    profile.dependsOn(\.name)
    orders.dependsOn(\.amount)
    let window = ContextWindow()
    let view = LabelView("DashboardView")
    view.link(to: dashboard)
    window.attach(view)

    await profileClient.update { $0.name = "Ada" }
    profileClient.cell.deliverPendingMainActorChanges()
    #expect(view.renderCount == 2)
    await ordersClient.update { $0.amount = 3 }
    ordersClient.cell.deliverPendingMainActorChanges()
    #expect(view.renderCount == 3)
    await profileClient.update { $0.visits = 3 }  // nobody depends on it
    profileClient.cell.deliverPendingMainActorChanges()
    #expect(view.renderCount == 3)

    #expect(profile.path == "global/Composite/Dashboard/Profile")  // adopted
    #expect(orders.path == "global/Composite/Dashboard/Orders")
    #expect(dashboard.composed.count == 2)
    #expect(registry.violations().isEmpty)
    #expect(registry.components(of: .context).count == 3)
  }

  @Test func aPartBelowTheCompositeKeepsItAndIsHeldWeakly() {
    let root = makeRoot("Composite")
    let lifetimes = LifetimeTracker()
    var part: Context?
    do {
      let dashboard = lifetimes.track(CompositeContext(named: "Dashboard", in: root))
      part = lifetimes.track(dashboard.compose(Context(named: "Part")))
      #expect(dashboard.subcontexts.map(\.name) == ["Part"])
    }
    #expect(lifetimes.survivors.count == 2)  // the part keeps its composite
    #expect(part?.path == "global/Composite/Dashboard/Part")
    part = nil
    #expect(lifetimes.survivors.isEmpty)  // and nothing keeps the pair: no cycle
  }

  @Test func aCompositeDoesNotKeepAPartBelowIt() {
    let root = makeRoot("Composite")
    let dashboard = CompositeContext(named: "Dashboard", in: root)
    weak var part: Context?
    do {
      let kept = dashboard.compose(dashboard.createSubcontext(named: "Part"))
      part = kept
      #expect(dashboard.composed.count == 1)
    }
    #expect(part == nil)
    #expect(dashboard.composed.isEmpty)
  }

  @Test func aCompositeKeepsAPartThatLivesElsewhere() {
    let root = makeRoot("Composite")
    let lifetimes = LifetimeTracker()
    do {
      let dashboard = lifetimes.track(CompositeContext(named: "Dashboard", in: root))
      do {
        lifetimes.track(dashboard.compose(root.createSubcontext(named: "Elsewhere")))
      }
      #expect(lifetimes.survivors.count == 2)
      #expect(dashboard.composed.map(\.path) == ["global/Composite/Elsewhere"])
    }
    #expect(lifetimes.survivors.isEmpty)
  }

  @Test func adoptingTheDetachedRootOfAKeptPartLetsItGo() {
    let root = makeRoot("Composite")
    let lifetimes = LifetimeTracker()
    do {
      let dashboard = lifetimes.track(CompositeContext(named: "Dashboard", in: root))
      let detached = lifetimes.track(Context(named: "Detached"))
      let part = lifetimes.track(dashboard.compose(detached.createSubcontext(named: "Part")))
      dashboard.compose(detached)  // now the kept part lies below the composite
      #expect(part.supercontext === detached)
      #expect(
        dashboard.composed.map(\.path) == [
          "global/Composite/Dashboard/Detached/Part", "global/Composite/Dashboard/Detached",
        ])
    }
    #expect(lifetimes.survivors.isEmpty)
  }

  @Test func aCompositeDoesNotAdoptItsOwnRoot() {
    let detached = Context(named: "Detached")
    let dashboard = CompositeContext(named: "Dashboard", in: detached)
    dashboard.compose(detached)
    #expect(detached.supercontext == nil)
    #expect(dashboard.path == "Detached/Dashboard")
    #expect(dashboard.composed.count == 1)
  }
}
