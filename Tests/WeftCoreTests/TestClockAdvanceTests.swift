import Testing

@testable import WeftCore

/// `advance` runs the work it wakes until it sleeps again or ends, one deadline at a time.
@Suite("TestClock.advance runs woken work", .timeLimit(.minutes(1)))
struct TestClockAdvanceTests {
  @Test func advanceOverARepeatingTimerFiresEveryTickInTheWindow() async {
    let clock = TestClock()
    let ticks = Recorder<TestClock.Instant>()
    let timer = Task {
      await clock.tracked {
        for await tick in clock.timer(interval: .seconds(1)) { ticks.append(tick) }
      }
    }
    await clock.waitForSleepers(count: 1)  // a plain task: its first sleep is the signal
    await clock.advance(by: .seconds(5))
    #expect(ticks.values.map(\.offset) == (1...5).map { .seconds($0) })
    await clock.advance(by: .milliseconds(500))
    #expect(ticks.count == 5)
    await clock.advance(by: .milliseconds(500))
    #expect(ticks.values.last?.offset == .seconds(6))
    timer.cancel()
    await timer.value
  }

  @Test func wokenWorkThatSleepsAgainRunsBeforeTheNextDeadline() async {
    let clock = TestClock()
    let seen = Recorder<String>()
    let work = Task {
      await clock.tracked(name: "steps") {
        for step in 1...3 {
          try? await clock.sleep(for: .seconds(step))  // wakes at t+1, t+3, t+6
          seen.append("step \(step) at \(clock.now)")
        }
      }
    }
    let other = Task {
      await clock.tracked {
        try? await clock.sleep(for: .seconds(2))
        seen.append("other at \(clock.now)")
      }
    }
    await clock.waitForSleepers(count: 2)
    await clock.advance(by: .seconds(6))
    #expect(
      seen.values == [
        "step 1 at t+1.0 seconds", "other at t+2.0 seconds", "step 2 at t+3.0 seconds",
        "step 3 at t+6.0 seconds",
      ])
    await work.value
    await other.value
  }

  @Test func aZeroLengthSleepSuspendsLikeAnyOther() async {
    let clock = TestClock()
    let seen = Recorder<String>()
    let task = Task {
      await clock.tracked {
        try? await clock.sleep(for: .zero)
        seen.append("first")
        try? await clock.sleep(for: .zero)
        seen.append("second")
      }
    }
    #expect(await clock.waitForSleepers(count: 1))
    #expect(seen.values.isEmpty)  // suspended, not returned at once
    await clock.advance()  // by zero: runs both zero-length sleeps due at t+0
    #expect(seen.values == ["first", "second"])
    #expect(clock.now == TestClock.Instant())
    await task.value
  }

  @Test func aPlainTaskItWokeIsResumedAndNotWaitedFor() async {
    let clock = TestClock()
    let ticks = Recorder<Int>()
    let task = Task {
      for tick in 1...3 {
        try? await clock.sleep(for: .seconds(1))
        ticks.append(tick)
      }
    }
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(3))  // untraced: only the sleep already waiting is due
    await clock.waitForSleepers(count: 1)
    #expect(ticks.values == [1])
    #expect(clock.sleeperSummary == "1 task sleeping (until t+4.0 seconds)")
    task.cancel()
    await task.value
  }

  @Test func wokenWorkThatNeverSettlesIsReportedAndAdvanceStops() async {
    let clock = TestClock()
    let gate = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      await clock.tracked(name: "waiting for the gate") {
        try? await clock.sleep(for: .seconds(1))
        for await _ in gate.stream { break }  // awaits what only the test can give
      }
    }
    await clock.waitForSleepers(count: 1)
    let message = await clock.advanceReporting(
      to: TestClock.Instant(offset: .seconds(5)), timeout: .milliseconds(50))
    #expect(
      message
        == "TestClock.advance waited 0.05 seconds of real time for the work it woke to sleep "
        + "again or end: waiting for the gate still running (no task sleeping). It awaits "
        + "something other than the clock; give it what it waits for first, or cancel it.")
    #expect(clock.now.offset == .seconds(1))  // it stopped at the deadline it woke
    gate.continuation.finish()
    await task.value
  }

  @Test func theTimelineSaysWhichSleepBeganAfterTheLastAdvance() async {
    let clock = TestClock()
    await clock.advance(by: .seconds(1))
    let task = Task { try? await clock.sleep(for: .seconds(1)) }
    await clock.waitForSleepers(count: 1)
    #expect(clock.hasSleepersAfterLastAdvance)
    #expect(
      clock.timeline
        == "the TestClock is at t+1.0 seconds; 1 task sleeping: until t+2.0 seconds (began at "
        + "t+1.0 seconds, after the last advance)")
    await clock.advance(by: .seconds(1))
    await task.value
    #expect(!clock.hasSleepersAfterLastAdvance)
    #expect(clock.timeline == "the TestClock is at t+2.0 seconds; no task sleeping")
  }
}
