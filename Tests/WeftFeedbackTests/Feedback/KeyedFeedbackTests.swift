import Testing
import WeftCore
import WeftTesting

@testable import WeftFeedback

/// Uploads keyed by id, each with a target size that may change while it runs.
private struct Uploads: Sendable, Equatable {
  var queued: [String: Int] = [:]
  var done: [String] = []
  var pokes = 0

  enum Event: Sendable, Equatable {
    case queue([String: Int])
    case set(String, Int?)
    case done(String)
    case poke
  }

  static func reduce(_ state: inout Uploads, _ event: Event) {
    switch event {
    case .queue(let uploads): state.queued = uploads
    case .set(let id, let size): state.queued[id] = size
    case .done(let entry): state.done.append(entry)
    case .poke: state.pokes += 1
    }
  }
}

/// The keyed `Feedback.forEach(state:effects:)`: one effect per key, started with the key's
/// value, later values streamed to it without a restart, cancelled when the key leaves; all
/// on the virtual clock.
@Suite("Feedback over a keyed map", .timeLimit(.minutes(5)))
@MainActor
struct KeyedFeedbackTests {
  /// A system whose effect for a key logs "start id=value", then every later value it
  /// receives as "id=value", and ends when its stream ends or after `finishAfter` values.
  private func uploads(
    initial: [String: Int] = [:], log: Log, activity: Recorder<String>,
    finishAfter: Int = .max
  ) -> FeedbackSystem<Uploads, Uploads.Event> {
    FeedbackSystem(
      initial: Uploads(queued: initial), reduce: Uploads.reduce,
      feedbacks: [
        .forEach(state: \.queued) { id, size, later in
          log.append("start \(id)=\(size)")
          var seen = 0
          for await changed in later {
            log.append("\(id)=\(changed)")
            seen += 1
            if seen == finishAfter { return .done("\(id)=\(changed)") }
          }
          return nil
        }
      ], on: MainActor.shared,
      observingEffects: { activity.append("\($0.kind) \($0.detail ?? "")") })
  }

  @Test func aKeyThatAppearsStartsOneThatLeavesCancelsOnlyItsOwnOneThatStaysIsKept() async {
    let log = Log()
    let activity = Recorder<String>()
    let system = uploads(log: log, activity: activity)
    system.send(.queue(["a": 1, "b": 2]))
    #expect(Set(activity.values) == ["scheduled a", "scheduled b"])
    await log.saw(["start a=1", "start b=2"])
    let before = activity.count
    system.send(.queue(["b": 2, "c": 3]))
    #expect(Array(activity.values[before...]) == ["cancelled a", "scheduled c"])
    await log.saw(["start c=3"])
    #expect(activity.values.filter { $0 == "scheduled b" }.count == 1)
    #expect(!activity.values.contains("cancelled b"))
    #expect(system.activeEffectCount == 2)
    system.cancel()
    await system.waitUntilIdle()
  }

  @Test func anEqualValueIsNotSentAgainAndAnEqualMapOrUnrelatedEventChangesNothing() async {
    let log = Log()
    let activity = Recorder<String>()
    let system = uploads(initial: ["a": 1, "b": 2], log: log, activity: activity, finishAfter: 1)
    await log.saw(["start a=1", "start b=2"])
    let before = activity.values
    system.send(.queue(["b": 2, "a": 1]))
    system.send(.set("a", 1))
    system.send(.poke)
    #expect(activity.values == before)
    #expect(system.activeEffectCount == 2)
    // The first value a's effect receives is the next different one, not a repeat of 1.
    system.send(.set("a", 5))
    await log.saw(["a=5"])
    await system.waitForEffects(atMost: 1)
    #expect(log.values.filter { $0.hasPrefix("a") } == ["a=5"])
    system.cancel()
    await system.waitUntilIdle()
    #expect(system.state.done == ["a=5"])
  }

  @Test func aChangedValueIsStreamedToTheRunningEffectWithoutARestart() async {
    let log = Log()
    let activity = Recorder<String>()
    let system = uploads(initial: ["a": 1], log: log, activity: activity, finishAfter: 3)
    system.send(.set("a", 2))
    system.send(.set("a", 3))
    system.send(.set("a", 3))  // equal: not sent
    system.send(.set("a", 4))
    await system.waitUntilIdle()
    #expect(log.values == ["start a=1", "a=2", "a=3", "a=4"])
    #expect(system.state.done == ["a=4"])
    #expect(activity.values.filter { $0.hasPrefix("scheduled") } == ["scheduled a"])
    #expect(!activity.values.contains { $0.hasPrefix("cancelled") })
    // Completed while the key stays: a later value starts nothing.
    system.send(.set("a", 9))
    #expect(activity.values.filter { $0.hasPrefix("scheduled") } == ["scheduled a"])
    #expect(system.activeEffectCount == 0)
  }

  @Test func aKeyThatComesBackStartsAFreshEffectWithItsNewValue() async {
    let log = Log()
    let activity = Recorder<String>()
    let system = uploads(initial: ["a": 1], log: log, activity: activity)
    await log.saw(["start a=1"])
    system.send(.set("a", nil))
    system.send(.set("a", 3))
    #expect(activity.values.filter { $0.hasPrefix("scheduled") } == ["scheduled a", "scheduled a"])
    #expect(activity.values.filter { $0.hasPrefix("cancelled") } == ["cancelled a"])
    await log.saw(["start a=3"])
    system.send(.set("a", 4))
    await log.saw(["a=4"])
    let values = log.values
    #expect(values.filter { $0.hasPrefix("start") } == ["start a=1", "start a=3"])
    #expect(values.firstIndex(of: "start a=3")! < values.firstIndex(of: "a=4")!)
    #expect(values.filter { $0 == "a=4" }.count == 1)  // the old effect's stream had ended
    system.cancel()
    await system.waitUntilIdle()
  }

  @Test func theLateEventOfAKeyThatLeftIsDropped() async {
    let clock = TestClock()
    let system = FeedbackSystem<Uploads, Uploads.Event>(
      initial: Uploads(queued: ["a": 1, "b": 2]), reduce: Uploads.reduce,
      feedbacks: [
        .forEach(state: \.queued) { id, _, _ in
          // try?: ignores cancellation on purpose, to return an event the system must drop.
          try? await clock.sleep(for: .seconds(1))
          return .done(id)
        }
      ], on: MainActor.shared)
    await clock.waitForSleepers(count: 2)
    system.send(.set("a", nil))  // a's effect is cancelled and returns `.done("a")` anyway
    await system.waitForEffects(atMost: 1)
    await clock.advance(by: .seconds(1))
    await system.waitUntilIdle()
    #expect(system.state.done == ["b"])
  }

  @Test func growingToAThousandKeysAtRunTimeAndBackToEmpty() async {
    let activity = Recorder<String>()
    let log = Log()
    let system = FeedbackSystem<Uploads, Uploads.Event>(
      initial: Uploads(), reduce: Uploads.reduce,
      feedbacks: [
        .forEach(state: \.queued) { id, _, later in
          for await size in later { log.append("\(id)=\(size)") }
          return nil
        }
      ], on: MainActor.shared, observingEffects: { activity.append("\($0.kind)") })
    var queued: [String: Int] = [:]
    for step in 0..<10 {  // grows 100 keys at a time
      for index in step * 100..<(step + 1) * 100 { queued["upload \(index)"] = 0 }
      system.send(.queue(queued))
      #expect(system.activeEffectCount == queued.count)
    }
    #expect(activity.values.filter { $0 == "scheduled" }.count == 1_000)
    queued["upload 7"] = 1  // one value changes: one value sent, no restart
    system.send(.queue(queued))
    await log.saw(["upload 7=1"])
    #expect(log.values == ["upload 7=1"])
    #expect(activity.values.filter { $0 == "scheduled" }.count == 1_000)
    #expect(!activity.values.contains("cancelled"))
    system.send(.queue([:]))
    await system.waitUntilIdle()
    #expect(system.activeEffectCount == 0)
    #expect(activity.values.filter { $0 == "cancelled" }.count == 1_000)
    #expect(activity.values.filter { $0 == "finished" }.count == 1_000)
  }

  @Test func everyKeyEffectIsCancelledWhenTheSystemIsCancelledOrReleased() async {
    for release in [false, true] {
      let releases = Releases()
      var system: FeedbackSystem<Uploads, Uploads.Event>? = FeedbackSystem(
        initial: Uploads(queued: ["a": 1, "b": 2, "c": 3]), reduce: Uploads.reduce,
        feedbacks: [
          .forEach(state: \.queued) { id, _, later in
            let token = releases.token(id)
            releases.signal("started " + id)
            await suspendUntilCancelled()
            withExtendedLifetime((token, later)) {}
            return .done(id)
          }
        ], on: MainActor.shared)
      weak let weakSystem = system
      await releases.signaled(["started a", "started b", "started c"])
      if release {
        system = nil
      } else {
        system?.cancel()
      }
      await releases.released(["a", "b", "c"])
      #expect(system?.state.done ?? [] == [])
      system = nil
      #expect(weakSystem == nil)
    }
  }

  @Test func theSequenceFormFeedsBackEachKeysSequenceAndItsLaterValues() async {
    let system = FeedbackSystem<Uploads, Uploads.Event>(
      initial: Uploads(queued: ["a": 1]), reduce: Uploads.reduce,
      feedbacks: [
        .forEach(state: \.queued) { id, size, later in
          later.prefix(1).map { Uploads.Event.done("\(id) \(size)→\($0)") }
        }
      ], on: MainActor.shared)
    system.send(.set("a", 2))
    await system.waitUntilIdle()
    #expect(system.state.done == ["a 1→2"])
  }

  @Test func aTestStoreShowsTheRunningKeysAndNamesTheKeyStillRunningAtTheEnd() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Uploads(), reduce: Uploads.reduce,
      feedbacks: [
        .forEach(state: \.queued) { id, size, _ in
          do {
            try await clock.sleep(for: .seconds(size))
            return .done(id)
          } catch {
            return nil
          }
        }.named("uploads")
      ])
    store.timeout = .milliseconds(20)
    store.send(.queue(["a": 1, "b": 5]), effects: .started("uploads", "uploads")) {
      $0.queued = ["a": 1, "b": 5]
    }
    #expect(Set(store.runningEffects.compactMap(\.detail)) == ["a", "b"])
    await clock.waitForSleepers(count: 2)
    await clock.advance(by: .seconds(1))
    await store.receive(.done("a")) { $0.done = ["a"] }
    #expect(store.runningEffects.map(\.detail) == ["b"])
    let line = #line + 2
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      let message = issue.comments.first?.rawValue ?? ""
      return issue.sourceLocation?.line == line
        && message.hasPrefix("1 effect is still running at the end of the test:\n")
        && message.contains("• uploads #") && message.contains(" for b, started by send(")
    }
  }
}

/// A log that effects append to and tests wait on, by line, instead of guessing when an
/// effect got somewhere. A wait is bounded by real time that only a failing test reaches
/// (a line that never comes), so a broken implementation fails instead of hanging.
private final class Log: Sendable {
  private struct State {
    var lines: [String] = []
    var waiters: [UInt64: (lines: Set<String>, continuation: CheckedContinuation<Bool, Never>)] =
      [:]
    var nextWaiter: UInt64 = 0
  }

  private let state = Locked(State())

  func append(_ line: String) {
    let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
      state.lines.append(line)
      let seen = Set(state.lines)
      let due = state.waiters.filter { $0.value.lines.isSubset(of: seen) }
      for id in due.keys { state.waiters[id] = nil }
      return due.values.map(\.continuation)
    }
    for waiter in ready { waiter.resume(returning: true) }
  }

  var values: [String] { state.withLock { $0.lines } }

  /// Waits until every line in `expected` was appended; records an issue and returns after
  /// `timeout` of real time otherwise.
  func saw(
    _ expected: Set<String>, timeout: Duration = .seconds(5),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let seen = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let id = state.withLock { state -> UInt64? in
        guard !expected.isSubset(of: Set(state.lines)) else { return nil }
        state.nextWaiter += 1
        state.waiters[state.nextWaiter] = (expected, continuation)
        return state.nextWaiter
      }
      guard let id else { return continuation.resume(returning: true) }
      Task { [state] in
        // try?: Task.sleep throws only CancellationError, and nothing cancels this timer.
        try? await Task.sleep(for: timeout)
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: false)
      }
    }
    if !seen {
      Issue.record(
        "never logged \(expected.subtracting(values).sorted()); log: \(values)",
        sourceLocation: sourceLocation)
    }
  }
}
