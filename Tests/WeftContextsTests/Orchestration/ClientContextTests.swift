import Testing
import WeftCore

@testable import WeftContexts

/// Orchestration contexts: the MainActor mirror, asking the client, selective updates.
@Suite("Client contexts")
@MainActor
struct ClientContextTests {
  @Test func readsTheClientStateThroughTheMirror() async {
    let root = makeRoot("Clients")
    let client = ProfileClient(Profile(name: "Ada"))
    let context = ClientContext(client: client, named: "Profile", in: root)
    #expect(context.state.name == "Ada")
    #expect(context.version == 0)
    #expect(context.path == "global/Clients/Profile")

    await client.update { $0.name = "Grace" }
    client.cell.deliverPendingMainActorChanges()
    #expect(context.state.name == "Grace")
    #expect(context.snapshot.version == 1)
  }

  @Test func contextsOnOneClientShareOneMirror() {
    let root = makeRoot("Clients")
    let client = ProfileClient()
    let first = ClientContext(client: client, named: "First", in: root)
    let second = ClientContext(client: client, named: "Second", in: root)
    #expect(first.mirror === second.mirror)
    #expect(client.cell.selectorCount == 1)  // the mirror's one subscription
  }

  @Test func theMirrorGoesWithTheLastContext() {
    let root = makeRoot("Clients")
    let client = ProfileClient()
    weak var mirror: StateMirror<Profile>?
    do {
      let context = ClientContext(client: client, named: "Profile", in: root)
      mirror = context.mirror
    }
    #expect(mirror == nil)
    #expect(client.cell.subscriberCount == 0)
  }

  @Test func aContextNamedAfterItsType() {
    final class ProfileContext: ClientContext<ProfileClient> {}
    let root = makeRoot("Clients")
    let context = ProfileContext(client: ProfileClient(), in: root)
    #expect(context.name == "ProfileContext")
  }

  @Test func updateAsksTheClientAndShowsTheResultAtOnce() async throws {
    let root = makeRoot("Clients")
    let client = ProfileClient()
    let context = ClientContext(client: client, named: "Profile", in: root)
    let visits = await context.update { state -> Int in
      state.visits += 2
      return state.visits
    }
    #expect(visits == 2)
    #expect(context.state.visits == 2)  // no delivery needed
    #expect(client.cell.version == 1)  // one commit
  }

  @Test func aThrowingUpdateCommitsNothing() async {
    struct Refused: Error {}
    let root = makeRoot("Clients")
    let client = ProfileClient()
    let context = ClientContext(client: client, named: "Profile", in: root)
    await #expect(throws: Refused.self) {
      try await context.update { (state) throws(Refused) in
        state.visits = 99
        throw Refused()
      }
    }
    #expect(client.state.visits == 0)
    #expect(client.cell.version == 0)
  }

  @Test func writesReachTheClientInTheOrderTheyWereStarted() async {
    let root = makeRoot("Clients")
    let client = ProfileClient()
    let context = ClientContext(client: client, named: "Profile", in: root)
    for letter in ["a", "b", "c", "d"] { context.send { $0.name += letter } }
    await context.update { $0.name += "!" }
    #expect(client.state.name == "abcd!")
    #expect(client.cell.version == 5)
  }

  // MARK: Selective updates

  @Test func aViewReRendersOnlyWhenADeclaredDependencyChanges() async {
    let root = makeRoot("Clients")
    let client = ProfileClient()
    let context = ClientContext(client: client, named: "Profile", in: root)
    context.dependsOn(\.name)
    let window = ContextWindow()
    let view = NameView(context: context)
    window.attach(view)
    #expect(view.renderCount == 1)

    await client.update { $0.visits += 1 }  // nobody renders visits
    client.cell.deliverPendingMainActorChanges()
    #expect(view.renderCount == 1)
    #expect(context.willChangeCount == 0)

    await client.update { $0.name = "Ada" }
    client.cell.deliverPendingMainActorChanges()
    #expect(view.renderCount == 2)
    #expect(view.lastRendering == "Name: Ada")

    await client.update { $0.name = "Ada" }  // a no-op update delivers nothing
    client.cell.deliverPendingMainActorChanges()
    #expect(view.renderCount == 2)
  }

  @Test func severalDependenciesChangedTogetherSignalOnce() async {
    let root = makeRoot("Clients")
    let client = ProfileClient()
    let context = ClientContext(client: client, named: "Profile", in: root)
    context.dependsOn(\.name)
    context.dependsOn(\.age)
    context.dependsOn(StateSelector(id: "adult") { $0.age >= 18 })
    #expect(context.dependencyCount == 3)
    await client.update {
      $0.name = "Ada"
      $0.age = 36
    }
    client.cell.deliverPendingMainActorChanges()
    #expect(context.willChangeCount == 1)
  }

  /// Whether the MainActor delivery job runs between two of these writes depends on
  /// scheduling, so the count of signals is bounded, not exact; the final state is exact.
  /// (WeftCore's own tests pin the one-job-per-burst coalescing.)
  @Test func aBurstOfWritesEndsWithTheLatestStateAndAtMostOneSignalPerCommit() async {
    let root = makeRoot("Clients")
    let client = ProfileClient()
    let context = ClientContext(client: client, named: "Profile", in: root)
    context.dependsOn(\.visits)
    let window = ContextWindow()
    let view = NameView(context: context)
    window.attach(view)
    for _ in 0..<10 { context.send { $0.visits += 1 } }
    await context.waitForWrites()
    client.cell.deliverPendingMainActorChanges()
    #expect(context.state.visits == 10)
    #expect((1...10).contains(context.willChangeCount))
    #expect(view.lastRendering == "Name: ")
    #expect(view.renderCount == 1 + context.willChangeCount)
  }

  @Test func aDependencyOnASupportingClientSignalsToo() async {
    let root = makeRoot("Clients")
    let profile = ProfileClient()
    let ledger = LedgerClient(name: "Ledger")
    let context = ClientContext(
      client: profile, supporting: [ledger], named: "Profile", in: root)
    context.dependsOn(\.amount, of: ledger)
    await ledger.update { $0.amount = 5 }
    ledger.cell.deliverPendingMainActorChanges()
    #expect(context.willChangeCount == 1)
    #expect(context.snapshot(of: ledger).state.amount == 5)
    #expect(context.supportingClients.count == 1)
  }

  // MARK: Lifetimes

  @Test func releasedContextsViewsAndBindingsAreFreed() async {
    let root = makeRoot("Clients")
    let lifetimes = LifetimeTracker()
    let clock = TestClock()
    do {
      let client = lifetimes.track(ProfileClient())
      let context = lifetimes.track(ClientContext(client: client, named: "Profile", in: root))
      context.dependsOn(\.name)
      let window = lifetimes.track(ContextWindow())
      let view = lifetimes.track(NameView(context: context))
      window.attach(view)
      let name = context.bind(\.name)
      name.set("Ada")
      let query = context.bind(\.query, debouncedFor: .seconds(1), clock: clock)
      query.set("pending")  // never fires: cancelled with its context
      await clock.waitForSleepers(count: 1)
      await context.waitForWrites()  // the open debounce window is not waited for
      client.cell.deliverPendingMainActorChanges()
      #expect(view.lastRendering == "Name: Ada")
    }
    #expect(lifetimes.survivors.isEmpty)
    #expect(clock.sleeperCount == 0)  // the pending timer was cancelled with its context
  }
}
