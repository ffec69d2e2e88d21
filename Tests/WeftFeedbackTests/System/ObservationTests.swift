import Testing
import WeftCore
import WeftFeedback

/// A system's state is observable through WeftCore's fan-out: current value, key-path
/// subscriptions, `changes`, and `values(of:)`.
@Suite("Observation through the fan-out engine", .timeLimit(.minutes(5)))
@MainActor
struct ObservationTests {
  @Test func everyReductionIsOneCommit() {
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(), reduce: Probe.reduce, feedbacks: [], on: MainActor.shared)
    system.send(.set("a"))
    system.send(.poke)
    #expect(system.cell.version == 2)
    #expect(system.state == Probe(query: "a", pokes: 1))
  }

  @Test func keyPathSubscribersSeeOnlyTheirField() {
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(), reduce: Probe.reduce, feedbacks: [], on: MainActor.shared)
    let queries = Recorder<String?>()
    let subscription = system.cell.observeSynchronously(\.query) { queries.append($0.value) }
    system.send(.poke)
    system.send(.set("a"))
    system.send(.poke)
    system.send(.set("b"))
    #expect(queries.values == ["a", "b"])
    subscription.cancel()
  }

  @Test func mainActorSubscribersGetTheLatestValueOncePerBurst() {
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(), reduce: Probe.reduce, feedbacks: [], on: MainActor.shared)
    var seen: [Int] = []
    let subscription = system.cell.observeOnMainActor(\.pokes) { seen.append($0.value) }
    for _ in 0..<10 { system.send(.poke) }
    system.cell.deliverPendingMainActorChanges()
    #expect(seen == [10])
    subscription.cancel()
  }

  @Test func changesStreamsSnapshotsInVersionOrder() async {
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(), reduce: Probe.reduce, feedbacks: [], on: MainActor.shared)
    var iterator = system.cell.changes(buffering: .unbounded).makeAsyncIterator()
    system.send(.set("a"))
    system.send(.poke)
    var versions: [UInt64] = []
    for _ in 0..<3 { versions.append(await iterator.next()!.version) }
    #expect(versions == [0, 1, 2])
  }

  @Test func valuesOfAKeyPathStartWithTheCurrentOneAndSkipRepeats() async {
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(query: "start"), reduce: Probe.reduce, feedbacks: [], on: MainActor.shared)
    let values = system.cell.values(of: \.query)
    system.send(.poke)
    system.send(.set("a"))
    system.send(.set("a"))
    system.send(.set(nil))
    system.cancel()
    var iterator = values.makeAsyncIterator()
    var seen: [String?] = []
    for _ in 0..<3 { seen.append(await iterator.next()!) }
    #expect(seen == ["start", "a", nil])
  }
}

/// The explicit signals tests wait on.
@Suite("Idle signals", .timeLimit(.minutes(5)))
@MainActor
struct IdleSignalTests {
  @Test func waitUntilIdleReturnsAtOnceWhenNothingRuns() async {
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(), reduce: Probe.reduce, feedbacks: [], on: MainActor.shared)
    await system.waitUntilIdle()
    #expect(system.activeEffectCount == 0)
  }

  @Test func waitForEffectsReturnsWhenACancelledEffectHasEnded() async {
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(), reduce: Probe.reduce,
      feedbacks: [
        .lensingSkippingRepeated(state: \.query) { _ in
          await suspendUntilCancelled()
          return nil
        }
      ], on: MainActor.shared)
    system.send(.set("a"))
    system.send(.set("b"))  // cancels a, starts b
    #expect(system.activeEffectCount == 2)
    await system.waitForEffects(atMost: 1)
    #expect(system.activeEffectCount == 1)
    system.cancel()
    await system.waitUntilIdle()
  }

  @Test func cancellingTheWaitingTaskReturnsAtOnce() async {
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(query: "forever"), reduce: Probe.reduce,
      feedbacks: [
        .lensingSkippingRepeated(state: \.query) { _ in
          await suspendUntilCancelled()
          return nil
        }
      ], on: MainActor.shared)
    let waiter = Task { await system.waitUntilIdle() }
    waiter.cancel()
    await waiter.value
    #expect(system.activeEffectCount == 1)
    system.cancel()
    await system.waitUntilIdle()
  }

  @Test func anActorHostedSystemReducesOnItsHost() async {
    actor Host {}
    let host = Host()
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(),
      reduce: { state, event in
        host.preconditionIsolated()
        Probe.reduce(&state, event)
      },
      feedbacks: [], on: host)
    #expect(system.host === host)
    await system.sendAndWait(.poke)
    #expect(system.state.pokes == 1)
  }
}
