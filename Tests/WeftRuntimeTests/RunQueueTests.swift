import Testing

@testable import WeftRuntime

@Suite("RunQueue: the runtime's scheduling state")
struct RunQueueTests {
  @Test func arrivalOrderRunsJobsFirstInFirstOut() {
    var queue = RunQueue<String>()
    queue.enqueue("a", lane: .global)
    queue.enqueue("m1", lane: .main)
    queue.enqueue("b", lane: .global)
    var order: [String] = []
    while let (job, _) = queue.next() { order.append(job) }
    #expect(order == ["a", "m1", "b"])
    #expect(queue.isIdle)
  }

  @Test func timersFireInDeadlineOrderAndTiesInArrivalOrder() {
    var queue = RunQueue<String>()
    queue.schedule("late", lane: .global, after: 2_000)
    queue.schedule("tie-1", lane: .global, after: 1_000)
    queue.schedule("tie-2", lane: .main, after: 1_000)
    var fired: [String] = []
    var times: [UInt64] = []
    while queue.fireNextTimer(upTo: .max) {
      times.append(queue.now)
      while let (job, _) = queue.next() { fired.append(job) }
    }
    #expect(fired == ["tie-1", "tie-2", "late"])
    #expect(times == [1_000, 1_000, 2_000])
  }

  @Test func aTimerBeyondTheLimitStaysParked() {
    var queue = RunQueue<Int>()
    queue.schedule(1, lane: .global, after: 500)
    let fired = queue.fireNextTimer(upTo: 499)
    #expect(!fired)
    #expect(queue.nextDeadline == 500)
    queue.advanceTime(to: 400)
    #expect(queue.now == 400)
    queue.schedule(2, lane: .global, after: 50)
    #expect(queue.pendingTimers.map(\.deadline) == [450, 500])
  }

  @Test func aSeededScheduleKeepsTheMainLaneInOrder() {
    for seed in UInt64(1)...200 {
      var queue = RunQueue<String>(chooser: ScheduleChooser(seed: seed))
      for index in 0..<4 {
        queue.enqueue("m\(index)", lane: .main)
        queue.enqueue("g\(index)", lane: .global)
      }
      var main: [String] = []
      var global: [String] = []
      while let (job, lane) = queue.next() {
        if lane == .main { main.append(job) } else { global.append(job) }
      }
      #expect(main == ["m0", "m1", "m2", "m3"], "seed \(seed)")
      #expect(global.sorted() == ["g0", "g1", "g2", "g3"], "seed \(seed)")
    }
  }

  @Test func seedsReorderReadyJobsAndTiedTimersReproducibly() {
    func order(_ seed: UInt64?) -> [String] {
      var queue = RunQueue<String>(chooser: ScheduleChooser(seed: seed))
      for name in ["a", "b", "c", "d"] { queue.enqueue(name, lane: .global) }
      for name in ["t1", "t2", "t3"] { queue.schedule(name, lane: .global, after: 10) }
      var result: [String] = []
      while let (job, _) = queue.next() { result.append(job) }
      while queue.fireNextTimer(upTo: .max) {
        while let (job, _) = queue.next() { result.append(job) }
      }
      return result
    }
    #expect(order(nil) == ["a", "b", "c", "d", "t1", "t2", "t3"])
    #expect(order(7) == order(7))
    let distinct = Set((UInt64(1)...50).map { order($0) })
    #expect(distinct.count > 10)
  }

  @Test func aPreemptedEnqueueStillFindsTheRoundDuration() {
    // The app asked for 300 ms; the thread was preempted 3.5 ms between its clock read and
    // the enqueue: the interval holds 297…300 ms, and 300 is the roundest.
    #expect(
      VirtualDelay.roundest(from: .microseconds(296_500), to: .microseconds(300_100))
        == 300_000_000)
    // Not preempted: the interval is a few microseconds wide.
    #expect(
      VirtualDelay.roundest(from: .microseconds(14_990), to: .microseconds(15_010))
        == 15_000_000)
    // No whole millisecond inside: round up.
    #expect(
      VirtualDelay.roundest(from: .microseconds(1_490), to: .microseconds(1_495)) == 2_000_000)
    // Already past at the window's start: now. A sub-millisecond one (preempted or not): 1 ms.
    #expect(VirtualDelay.roundest(from: .microseconds(-20), to: .microseconds(-5)) == 0)
    #expect(VirtualDelay.roundest(from: .microseconds(-20), to: .microseconds(10)) == 1_000_000)
    #expect(VirtualDelay.roundest(from: .microseconds(3), to: .microseconds(9)) == 1_000_000)
    // Ties between equally round candidates go to the smallest.
    #expect(
      VirtualDelay.roundest(from: .microseconds(1_200), to: .microseconds(3_700)) == 2_000_000)
    // A wide window does not pull a short sleep up to a round number far above it.
    #expect(VirtualDelay.roundest(from: .microseconds(4), to: .microseconds(10_200)) == 1_000_000)
    #expect(
      VirtualDelay.roundest(from: .microseconds(14_200), to: .microseconds(20_300)) == 15_000_000)
    // Preempted for more than a tenth of the sleep (a loaded CI machine): still the sleep.
    #expect(
      VirtualDelay.roundest(from: .microseconds(89_500), to: .microseconds(100_200))
        == 100_000_000)
    #expect(
      VirtualDelay.roundest(from: .milliseconds(800), to: .microseconds(1_000_100))
        == 1_000_000_000)
  }

  @Test func virtualDelaysRoundRealClockDeadlinesUpToAMillisecond() {
    #expect(VirtualDelay.nanoseconds(.milliseconds(300)) == 300_000_000)
    #expect(VirtualDelay.nanoseconds(.seconds(-1)) == 0)
    #expect(VirtualDelay.exact(Duration.microseconds(5)) == 5_000)
    let clock = ContinuousClock()
    let delay = VirtualDelay.until(clock.now.advanced(by: .milliseconds(300)), on: clock)
    #expect(delay == 300_000_000)
    let past = clock.now.advanced(by: .seconds(-1))
    #expect(VirtualDelay.until(past, on: clock) == 0)
  }
}
