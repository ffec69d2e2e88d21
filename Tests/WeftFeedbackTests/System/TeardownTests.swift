import Testing
import WeftCore
import WeftFeedback

/// Tearing a system down cancels every running effect and leaves nothing behind.
@Suite("Teardown", .timeLimit(.minutes(5)))
@MainActor
struct TeardownTests {
  /// A system running one effect of every kind, each of which marks its `Tracked` when it
  /// sees its cancellation and holds a release token.
  static func everyKind(
    _ tracked: [String: Tracked], _ releases: Releases, host: any Actor
  ) -> FeedbackSystem<Probe, Probe.Event> {
    func effect(_ name: String) -> @Sendable () async -> Probe.Event? {
      let tracked = tracked[name]!
      let token = releases.token(name)
      return {
        _ = token
        releases.signal("\(name) started")
        await suspendUntilCancelled(marking: tracked)
        return .done(name)
      }
    }
    let just = effect("just")
    let lens = effect("lens")
    let edge = effect("edge")
    let extract = effect("extract")
    return FeedbackSystem(
      initial: Probe(query: "a", flag: true), reduce: Probe.reduce,
      feedbacks: [
        .just { AsyncStream { await just() } },
        .lensingSkippingRepeated(state: \.query) { _ in await lens() },
        .whenBecomesTrue(state: \.flag) { _ in await edge() },
        .extracting(payload: { event -> String? in
          guard case .go(let payload) = event else { return nil }
          return payload
        }) { _ in await extract() },
      ], on: host)
  }

  static let kinds = ["just", "lens", "edge", "extract"]
  static let started = Set(kinds.map { "\($0) started" })

  @Test(arguments: [true, false])
  func cancelStopsEveryEffect(onMainActor: Bool) async {
    let tracked = Dictionary(uniqueKeysWithValues: Self.kinds.map { ($0, Tracked($0)) })
    let releases = Releases()
    let system = Self.everyKind(
      tracked, releases, host: onMainActor ? MainActor.shared : FeedbackActor())
    await system.sendAndWait(.go("1"))
    await releases.signaled(Self.started)
    let transitions = system.eventsWithState()
    #expect(system.activeEffectCount == 4)
    system.cancel()
    await system.waitUntilIdle()
    #expect(system.activeEffectCount == 0)
    for kind in Self.kinds { #expect(tracked[kind]!.sawCancellation, "\(kind)") }
    // Later events are ignored; the streams ended.
    system.send(.set("b"))
    #expect(system.state.query == "a")
    #expect(system.isCancelled)
    var count = 0
    for await _ in transitions { count += 1 }
    #expect(count == 0)
  }

  @Test(arguments: [true, false])
  func releasingTheSystemCancelsItsEffectsAndFreesEverything(onMainActor: Bool) async {
    let tracked = Dictionary(uniqueKeysWithValues: Self.kinds.map { ($0, Tracked($0)) })
    let releases = Releases()
    var system: FeedbackSystem<Probe, Probe.Event>? = Self.everyKind(
      tracked, releases, host: onMainActor ? MainActor.shared : FeedbackActor())
    await system?.sendAndWait(.go("1"))
    await releases.signaled(Self.started)
    weak let weakSystem = system
    system = nil  // no cancel(): effect tasks hold the system weakly, so this tears it down
    #expect(weakSystem == nil)
    await releases.released(Set(Self.kinds))  // each effect ended and released its captures
    for kind in Self.kinds { #expect(tracked[kind]!.sawCancellation, "\(kind)") }
  }

  @Test func anEffectThatIgnoresCancellationDoesNotKeepTheSystemAlive() async {
    let gate = Gate()
    let releases = Releases()
    let token = releases.token("stubborn")
    var system: FeedbackSystem<Probe, Probe.Event>? = FeedbackSystem(
      initial: Probe(query: "a"), reduce: Probe.reduce,
      feedbacks: [
        .lensingSkippingRepeated(state: \.query) { [token] query in
          _ = token
          await gate.wait()
          return .done(query)
        }
      ], on: MainActor.shared)
    _ = consume token
    weak let weakSystem = system
    await gate.waitForWaiters(1)
    system = nil
    #expect(weakSystem == nil)
    gate.open()
    await releases.released(["stubborn"])
  }

  @Test func dispatchIntoATornDownSystemDoesNothing() async {
    let captured = Recorder<EventDispatch<Probe.Event>>()
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(), reduce: Probe.reduce,
      feedbacks: [
        .imperative { dispatch in
          captured.append(dispatch)
          return { _, _ in }
        }
      ], on: MainActor.shared)
    let dispatch = captured.values[0]
    dispatch(.poke)
    #expect(system.state.pokes == 1)
    system.cancel()
    dispatch(.poke)
    #expect(system.state.pokes == 1)
  }
}
