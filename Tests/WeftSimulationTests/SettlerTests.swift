import Testing
import WeftCore
import WeftPersistence
import WeftSimulation

/// Wake-ups recorded as "name@offset".
final class WakeLog: Sendable {
  private let entries = Locked<[String]>([])
  var all: [String] { entries.withLock { $0 } }
  func record(_ name: String, _ clock: TestClock) {
    entries.withLock { $0.append("\(name)@\(clock.now.offset)") }
  }
}

@Suite("Settling on virtual time")
struct SettlerTests {
  let testClock = TestClock()
  let tracker = WorkTracker()
  var clock: SimulationClock { SimulationClock(testClock: testClock, tracker: tracker) }
  var settler: Settler {
    var settler = Settler(tracker: tracker, clock: testClock)
    settler.stallTimeout = .seconds(20)
    return settler
  }

  func sleeper(_ name: String, _ delays: [Duration], log: WakeLog) {
    let clock = self.clock
    let testClock = self.testClock
    tracker.spawn(name) {
      for delay in delays {
        try? await clock.sleep(for: delay)
        log.record(name, testClock)
      }
    }
  }

  @Test func nothingInFlightReturnsAtOnceWithoutMovingTime() async throws {
    try await settler.settle()
    #expect(testClock.now.offset == .zero)
  }

  // time:  0    1s   2s   3s
  // a:     park      wake
  // b:     park wake      wake
  @Test func sleepersWakeInDeadlineOrderOneAtATime() async throws {
    let log = WakeLog()
    sleeper("a", [.seconds(2)], log: log)
    sleeper("b", [.seconds(1), .seconds(2)], log: log)
    try await settler.settle()
    #expect(log.all == ["b@1.0 seconds", "a@2.0 seconds", "b@3.0 seconds"])
    #expect(tracker.status.isIdle)
  }

  // Equal deadlines: the one that parked first wakes first.
  @Test func equalDeadlinesWakeInTheOrderTheyParked() async throws {
    let log = WakeLog()
    for name in ["first", "second", "third"] {
      sleeper(name, [.seconds(1)], log: log)
      await waitUntilParked(count: name == "first" ? 1 : name == "second" ? 2 : 3)
    }
    try await settler.settle()
    #expect(log.all == ["first@1.0 seconds", "second@1.0 seconds", "third@1.0 seconds"])
  }

  // Work that is running (not parked) is waited for, never run past: `b` reads a database
  // before parking at 0.5 s; `a` is parked at 1 s all along.
  @Test func runningWorkIsWaitedForBeforeTimeMoves() async throws {
    let database = try await Database.inMemory()
    let log = WakeLog()
    sleeper("a", [.seconds(1)], log: log)
    let clock = self.clock
    let testClock = self.testClock
    tracker.spawn("b") {
      for _ in 0..<20 { _ = try? await database.read { try $0.scalar("SELECT 1") } }
      try? await clock.sleep(for: .milliseconds(500))
      log.record("b", testClock)
    }
    try await settler.settle()
    #expect(log.all == ["b@0.5 seconds", "a@1.0 seconds"])
    await database.close()
  }

  // time:  0    2s   5s
  // a:     park      wake      advance(2s) stops at 2s with `a` still parked
  @Test func advancingStopsAtTheTarget() async throws {
    let log = WakeLog()
    sleeper("a", [.seconds(5)], log: log)
    await waitUntilParked(count: 1)
    try await settler.advance(by: .seconds(2))
    #expect(testClock.now.offset == .seconds(2))
    #expect(log.all.isEmpty)
    #expect(tracker.status.parked == 1)
    try await settler.advance(by: .seconds(3))
    await waitUntilIdle()
    #expect(log.all == ["a@5.0 seconds"])
  }

  @Test func cancellingAParkedSleeperRemovesItAtOnce() async throws {
    let clock = self.clock
    tracker.begin("sleeper")
    let task = Task { try await clock.sleep(for: .seconds(10)) }
    await waitUntilParked(count: 1)
    task.cancel()
    #expect(tracker.status.parked == 0)
    await #expect(throws: CancellationError.self) { try await task.value }
    tracker.end("sleeper")
    try await settler.settle()
    #expect(testClock.now.offset == .zero)
  }

  @Test func workThatNeverEndsIsReportedByName() async throws {
    tracker.begin("stuck")
    var settler = self.settler
    settler.stallTimeout = .milliseconds(50)
    await #expect(throws: SettleError.stalled(inFlight: ["stuck×1"], after: .milliseconds(50))) {
      try await settler.settle()
    }
    tracker.end("stuck")
    tracker.end("never-begun")
    #expect(tracker.unmatchedEnds == ["never-begun"])
  }

  // Old code: a cancelled settle's waits returned at once and it spun until the watchdog
  // called it a stall (here after 2 s), or forever without one.
  @Test func aCancelledSettleSaysWhatIsStillInFlight() async throws {
    tracker.begin("stuck")
    var settler = self.settler
    settler.stallTimeout = .seconds(2)
    let settling = Task { [settler] () -> SettleError? in
      do throws(SettleError) {
        try await settler.settle()
        return nil
      } catch {
        return error
      }
    }
    settling.cancel()
    #expect(await settling.value == .cancelled(inFlight: ["stuck×1"]))
    tracker.end("stuck")
  }

  @Test func messagesArePinned() {
    #expect(
      SettleError.stalled(inFlight: ["sync.pass×1"], after: .seconds(60)).description
        == "the app did not settle: sync.pass×1 made no progress for 60.0 seconds — a piece of "
        + "work awaits something that never happens (a missing end, or a sleep outside the "
        + "simulation clock)")
    #expect(
      SettleError.tooManyWakes(limit: 10, inFlight: ["sync.timer×1"]).description
        == "the app did not settle after waking 10 sleepers; still in flight: sync.timer×1 — "
        + "work keeps rescheduling itself (clear the network faults, or raise the limit)")
    #expect(
      SettleError.realClock.description
        == "time cannot be advanced in the live configuration: it runs on the real clock")
    #expect(
      SettleError.cancelled(inFlight: ["sync.pass×1"]).description
        == "settling was cancelled with work still in flight: sync.pass×1")
  }

  @Test func theLiveSettlerOnlyWaits() async throws {
    let live = Settler(tracker: tracker, clock: nil)
    tracker.spawn("quick") {}
    try await live.settle()
    await #expect(throws: SettleError.realClock) { try await live.advance(by: .seconds(1)) }
  }

  private func waitUntilParked(count: Int) async {
    while true {
      let status = tracker.status
      if status.parked >= count { return }
      await tracker.waitForChange(since: status.generation)
    }
  }

  private func waitUntilIdle() async {
    while true {
      let status = tracker.status
      if status.isIdle { return }
      await tracker.waitForChange(since: status.generation)
    }
  }
}
