import Testing
import WeftCore

@testable import WeftFeedback

/// The cancellation rules users of the peers keep tripping over: an effect cancelled before
/// it starts never runs; cancelling right after the start neither crashes nor leaks; events
/// of a cancelled effect are dropped; no feedback cancels without its rule saying so.
@Suite("Cancellation rules", .timeLimit(.minutes(5)))
@MainActor
struct CancellationRulesTests {
  @Test func anEffectCancelledBeforeItStartsNeverRuns() async {
    let ran = Recorder<String>()
    let log = Recorder<String>()
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(), reduce: Probe.reduce,
      feedbacks: [
        .lensing(state: \.query) { query in
          ran.append(query)
          await suspendUntilCancelled()
          return nil
        }
      ], on: MainActor.shared, observingEffects: { log.append("\($0.kind) \($0.detail ?? "")") })
    // One MainActor job: each send restarts the effect before any task could begin.
    system.send(.set("a"))
    system.send(.set("b"))
    system.send(.set("c"))
    await system.waitForEffects(atMost: 1)
    #expect(ran.values == ["c"] || ran.values.isEmpty)
    system.send(.set(nil))
    await system.waitUntilIdle()
    #expect(ran.values.allSatisfy { $0 == "c" })
    #expect(
      log.values.filter { !$0.hasSuffix(" c") } == [
        "scheduled a", "cancelled a", "scheduled b", "cancelled b", "finished a", "finished b",
      ])
  }

  @Test func anEffectLaunchedAndTornDownInTheSameJobNeverRuns() async {
    let ran = Counter()
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(), reduce: Probe.reduce,
      feedbacks: [
        .lensing(state: \.query) { _ in
          ran.increment()
          return nil
        }
      ], on: MainActor.shared)
    system.send(.set("a"))
    system.cancel()
    await system.waitUntilIdle()
    #expect(ran.value == 0)
  }

  /// Starts and immediately cancels an effect many times, on the MainActor and on a
  /// system's own actor, racing the cancel against the start: every run either never
  /// started or saw its cancellation, and nothing outlives the test.
  @Test(arguments: [true, false])
  func cancellingRightAfterStartNeitherCrashesNorLeaks(onMainActor: Bool) async {
    for round in 0..<300 {
      let tracked = Tracked("effect \(round)")
      weak let weakTracked = tracked
      let began = Counter()
      var system: FeedbackSystem<Probe, Probe.Event>? = FeedbackSystem(
        initial: Probe(), reduce: Probe.reduce,
        feedbacks: [
          .lensingSkippingRepeated(state: \.query) { [tracked] _ in
            began.increment()
            await suspendUntilCancelled(marking: tracked)
            return nil
          }
        ], on: onMainActor ? MainActor.shared : FeedbackActor())
      weak let weakSystem = system
      system?.send(.set("a"))
      if round.isMultiple(of: 2) {
        system?.send(.set(nil))  // rule-driven cancel
      } else {
        system?.cancel()  // teardown
      }
      await system?.waitUntilIdle()
      #expect(began.value == 0 || tracked.sawCancellation)
      system = nil
      #expect(weakSystem == nil)
      _ = consume tracked
      #expect(weakTracked == nil)
    }
  }

  @Test func eventsOfACancelledEffectAreDropped() async {
    let gate = Gate()
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(), reduce: Probe.reduce,
      feedbacks: [
        .lensingSkippingRepeated(state: \.query) { query in
          await gate.wait()  // ignores cancellation on purpose
          return .done(query)
        }
      ], on: MainActor.shared)
    system.send(.set("a"))
    await gate.waitForWaiters(1)
    system.send(.set(nil))  // cancels while the effect is suspended
    gate.open()
    await system.waitUntilIdle()
    #expect(system.state.done.isEmpty)
  }

  @Test func noFeedbackCancelsAnEffectWithoutItsRule() async {
    let cancellations = Recorder<String>()
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(query: "a"), reduce: Probe.reduce,
      feedbacks: [
        .just { AsyncStream<Probe.Event> { _ in } }.named("just"),
        .lensingSkippingRepeated(state: \.query) { _ in
          await suspendUntilCancelled()
          return nil
        }.named("skipping"),
        .extracting(payload: { event -> String? in
          guard case .go(let payload) = event else { return nil }
          return payload
        }) { _ in
          await suspendUntilCancelled()
          return nil
        }.named("extracting"),
        .whenBecomesTrue(state: \.flag) { _ in
          await suspendUntilCancelled()
          return nil
        }.named("edge"),
      ], on: MainActor.shared,
      observingEffects: { if $0.kind == .cancelled { cancellations.append($0.feedback) } })
    system.send(.flag(true))
    system.send(.go("1"))
    for _ in 0..<50 {
      system.send(.poke)  // unrelated events
      system.send(.set("a"))  // an equal query
      system.send(.flag(true))  // still true
      system.send(.go("2"))  // another payload
    }
    #expect(cancellations.values.isEmpty)
    #expect(system.activeEffectCount == 4 + 50)
    system.cancel()
    await system.waitUntilIdle()
    #expect(cancellations.count == 4 + 50)
  }
}

/// A gate effects wait at until the test opens it; it ignores cancellation, like code that
/// does not check for it.
final class Gate: Sendable {
  private struct State {
    var open = false
    var waiting: [CheckedContinuation<Void, Never>] = []
    var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Locked(State())

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let (resumeNow, watchers) = state.withLock {
        state -> (Bool, [CheckedContinuation<Void, Never>]) in
        if state.open { return (true, []) }
        state.waiting.append(continuation)
        var ready: [CheckedContinuation<Void, Never>] = []
        state.watchers.removeAll { watcher in
          guard state.waiting.count >= watcher.count else { return false }
          ready.append(watcher.continuation)
          return true
        }
        return (false, ready)
      }
      for watcher in watchers { watcher.resume() }
      if resumeNow { continuation.resume() }
    }
  }

  /// Returns once `count` tasks wait at the gate.
  func waitForWaiters(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.waiting.count >= count { return true }
        state.watchers.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  func open() {
    let waiting = state.withLock { state in
      state.open = true
      defer { state.waiting = [] }
      return state.waiting
    }
    for continuation in waiting { continuation.resume() }
  }
}
