import Testing
import WeftCore
import WeftTesting

@testable import WeftFeedback

/// A screen whose visible rows each load a thumbnail.
private struct Rows: Sendable, Equatable {
  var visible: Set<String> = []
  var loaded: [String] = []
  var pokes = 0

  enum Event: Sendable, Equatable {
    case show(Set<String>)
    case loaded(String)
    case poke
  }

  static func reduce(_ state: inout Rows, _ event: Event) {
    switch event {
    case .show(let rows): state.visible = rows
    case .loaded(let row): state.loaded.append(row)
    case .poke: state.pokes += 1
    }
  }
}

/// `Feedback.forEach(state:effects:)`: one effect per element of a set, each started when
/// its element appears and cancelled when it leaves, on the virtual clock.
@Suite("Feedback over a set", .timeLimit(.minutes(5)))
@MainActor
struct SetFeedbackTests {
  /// A system whose effects load a row after one virtual second, logging "kind row".
  private func rows(
    clock: TestClock, log: Recorder<String>, ignoringCancellation: Bool = false
  ) -> FeedbackSystem<Rows, Rows.Event> {
    FeedbackSystem(
      initial: Rows(), reduce: Rows.reduce,
      feedbacks: [
        .forEach(state: \.visible) { row in
          do {
            try await clock.sleep(for: .seconds(1))
          } catch {
            if !ignoringCancellation { return nil }
          }
          return .loaded(row)
        }
      ], on: MainActor.shared,
      observingEffects: { log.append("\($0.kind) \($0.detail ?? "")") })
  }

  @Test func anElementThatAppearsStartsOneThatLeavesCancelsOnlyItsOwnOneThatStaysIsKept() async {
    let clock = TestClock()
    let log = Recorder<String>()
    let system = rows(clock: clock, log: log)
    system.send(.show(["a", "b"]))
    #expect(Set(log.values) == ["scheduled a", "scheduled b"])
    await clock.waitForSleepers(count: 2)
    let before = log.count
    system.send(.show(["b", "c"]))
    #expect(Array(log.values[before...]) == ["cancelled a", "scheduled c"])
    await clock.waitForSleepers(count: 2)  // a's sleep ended; b and c sleep
    await clock.advance(by: .seconds(1))
    await system.waitUntilIdle()
    #expect(system.state.loaded.sorted() == ["b", "c"])
    #expect(log.values.filter { $0 == "scheduled b" }.count == 1)
    #expect(!log.values.contains("cancelled b"))
  }

  @Test func anEqualSetOrAnUnrelatedEventChangesNothing() async {
    let clock = TestClock()
    let log = Recorder<String>()
    let system = rows(clock: clock, log: log)
    system.send(.show(["a", "b"]))
    await clock.waitForSleepers(count: 2)
    let before = log.values
    system.send(.show(["b", "a"]))
    system.send(.poke)
    #expect(log.values == before)
    #expect(system.activeEffectCount == 2)
    system.cancel()
    await system.waitUntilIdle()
  }

  @Test func aCompletedElementIsNotRestartedWhileItStaysAndStartsAfreshWhenItComesBack() async {
    let log = Recorder<String>()
    let system = FeedbackSystem<Rows, Rows.Event>(
      initial: Rows(visible: ["a"]), reduce: Rows.reduce,
      feedbacks: [.forEach(state: \.visible) { row in .loaded(row) }], on: MainActor.shared,
      observingEffects: { log.append("\($0.kind) \($0.detail ?? "")") })
    await system.waitUntilIdle()
    #expect(system.state.loaded == ["a"])  // the initial state counts; `.loaded` keeps it
    system.send(.show(["a", "b"]))
    await system.waitUntilIdle()
    #expect(system.state.loaded == ["a", "b"])
    system.send(.show([]))
    system.send(.show(["a"]))
    await system.waitUntilIdle()
    #expect(system.state.loaded == ["a", "b", "a"])
    #expect(!log.values.contains { $0.hasPrefix("cancelled") })  // both had completed
    #expect(log.values.filter { $0 == "scheduled a" }.count == 2)
  }

  @Test func theLateEventOfAnElementThatLeftIsDropped() async {
    let clock = TestClock()
    let log = Recorder<String>()
    let system = rows(clock: clock, log: log, ignoringCancellation: true)
    system.send(.show(["a", "b"]))
    await clock.waitForSleepers(count: 2)  // both effects are running
    system.send(.show(["b"]))  // a's effect is cancelled and returns `.loaded("a")` anyway
    await system.waitForEffects(atMost: 1)
    await clock.advance(by: .seconds(1))
    await system.waitUntilIdle()
    #expect(system.state.loaded == ["b"])
    #expect(log.values.contains("finished a"))
  }

  @Test func growingToAThousandElementsAtRunTimeAndBackToEmpty() async {
    let log = Recorder<String>()
    let system = FeedbackSystem<Rows, Rows.Event>(
      initial: Rows(), reduce: Rows.reduce,
      feedbacks: [
        .forEach(state: \.visible) { _ in
          await suspendUntilCancelled()
          return nil
        }
      ], on: MainActor.shared, observingEffects: { log.append("\($0.kind)") })
    var rows: Set<String> = []
    for step in 0..<10 {  // grows 100 rows at a time
      rows.formUnion((step * 100..<(step + 1) * 100).map { "row \($0)" })
      system.send(.show(rows))
      #expect(system.activeEffectCount == rows.count)
    }
    #expect(log.values.filter { $0 == "scheduled" }.count == 1_000)
    #expect(!log.values.contains("cancelled"))
    system.send(.show(rows.subtracting(["row 7"])))
    #expect(log.values.filter { $0 == "cancelled" }.count == 1)
    system.send(.show([]))
    await system.waitUntilIdle()
    #expect(system.activeEffectCount == 0)
    #expect(log.values.filter { $0 == "cancelled" }.count == 1_000)
    #expect(log.values.filter { $0 == "finished" }.count == 1_000)
  }

  @Test func everyElementEffectIsCancelledWhenTheSystemIsCancelledOrReleased() async {
    for release in [false, true] {
      let releases = Releases()
      var system: FeedbackSystem<Rows, Rows.Event>? = FeedbackSystem(
        initial: Rows(visible: ["a", "b", "c"]), reduce: Rows.reduce,
        feedbacks: [
          .forEach(state: \.visible) { row in
            let token = releases.token(row)
            releases.signal("started " + row)
            await suspendUntilCancelled()
            withExtendedLifetime(token) {}
            return .loaded(row)
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
      #expect(system?.state.loaded ?? [] == [])
      system = nil
      #expect(weakSystem == nil)
    }
  }

  @Test func theSequenceFormFeedsBackEveryElementOfEachRowsSequence() async {
    let system = FeedbackSystem<Rows, Rows.Event>(
      initial: Rows(), reduce: Rows.reduce,
      feedbacks: [
        .forEach(state: \.visible) { row in
          AsyncStream<Rows.Event> { continuation in
            continuation.yield(.loaded(row + "1"))
            continuation.yield(.loaded(row + "2"))
            continuation.finish()
          }
        }
      ], on: MainActor.shared)
    system.send(.show(["a", "b"]))
    await system.waitUntilIdle()
    #expect(system.state.loaded.sorted() == ["a1", "a2", "b1", "b2"])
    #expect(system.state.loaded.firstIndex(of: "a1")! < system.state.loaded.firstIndex(of: "a2")!)
  }

  @Test func aTestStoreNamesTheElementWhoseEffectIsStillRunningInThisTest() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Rows(), reduce: Rows.reduce,
      feedbacks: [
        .forEach(state: \.visible) { row in
          do {
            try await clock.sleep(for: .seconds(row == "a" ? 1 : 5))
            return .loaded(row)
          } catch {
            return nil
          }
        }.named("thumbnails")
      ])
    store.timeout = .milliseconds(20)
    store.send(.show(["a", "b"]), effects: .started("thumbnails", "thumbnails")) {
      $0.visible = ["a", "b"]
    }
    await clock.waitForSleepers(count: 2)
    await clock.advance(by: .seconds(1))
    await store.receive(.loaded("a")) { $0.loaded = ["a"] }
    let line = #line + 2
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      let message = issue.comments.first?.rawValue ?? ""
      return issue.sourceLocation?.line == line
        && message.hasPrefix("1 effect is still running at the end of the test:\n")
        && message.contains("• thumbnails #") && message.contains(" for b, started by send(")
    }
  }
}
