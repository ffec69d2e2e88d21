import Testing

@testable import WeftCore

@Suite("TestClock")
struct TestClockTests {
  @Test func sleepersResumeInDeadlineOrderThenArrivalOrder() async {
    let clock = TestClock()
    let order = Recorder<String>()
    let tasks = [("c", 3), ("a", 1), ("b1", 2), ("b2", 2)].map { name, seconds in
      Task {
        try? await clock.sleep(for: .seconds(seconds))
        order.append(name)
      }
    }
    // Register them deterministically: wait for each before starting the next check.
    await clock.waitForSleepers(count: 4)
    await clock.advance(by: .seconds(1))
    await tasks[1].value
    await clock.advance(by: .seconds(1))
    await tasks[2].value
    await tasks[3].value
    await clock.advance(by: .seconds(1))
    await tasks[0].value
    #expect(order.values.first == "a")
    #expect(Set(order.values.dropFirst().prefix(2)) == ["b1", "b2"])
    #expect(order.values.last == "c")
    #expect(clock.now.offset == .seconds(3))
  }

  @Test func advanceResumesOnlyDueSleepersAndNeverGoesBack() async {
    let clock = TestClock()
    let task = Task { try await clock.sleep(for: .seconds(10)) }
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(9))
    #expect(clock.sleeperCount == 1)
    await clock.advance(to: TestClock.Instant(offset: .seconds(5)))
    #expect(clock.now.offset == .seconds(9))
    await clock.advance(by: .seconds(1))
    try? await task.value
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancellationRemovesTheSleeperAtOnce() async {
    let clock = TestClock()
    let task = Task { try await clock.sleep(for: .seconds(60)) }
    await clock.waitForSleepers(count: 1)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeperCount == 0)
  }

  @Test func aPastDeadlineSuspendsUntilTheNextAdvance() async throws {
    let clock = TestClock()
    await clock.advance(by: .seconds(5))
    let woke = Recorder<TestClock.Instant>()
    let task = Task {
      try await clock.sleep(until: TestClock.Instant(offset: .seconds(1)))
      woke.append(clock.now)
    }
    #expect(await clock.waitForSleepers(count: 1))  // it suspended
    #expect(woke.count == 0)
    await clock.advance()  // by zero: resumes what is due
    try await task.value
    #expect(woke.values == [TestClock.Instant(offset: .seconds(5))])
  }

  @Test func runResumesEverySleeper() async {
    let clock = TestClock()
    let tasks = (1...5).map { seconds in Task { try? await clock.sleep(for: .seconds(seconds)) } }
    await clock.waitForSleepers(count: 5)
    await clock.run()
    for task in tasks { await task.value }
    #expect(clock.now.offset == .seconds(5))
  }

  @Test func manyRepetitionsStayDeterministic() async {
    for _ in 0..<2_000 {
      let clock = TestClock()
      let task = Task { () -> Int in
        try? await clock.sleep(for: .milliseconds(300))
        return 1
      }
      await clock.waitForSleepers(count: 1)
      await clock.advance(by: .milliseconds(300))
      #expect(await task.value == 1)
    }
  }
}
