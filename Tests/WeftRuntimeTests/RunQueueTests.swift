import Foundation
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

  /// The thread stalled (descheduled, or stopped) between the app's read of the clock and
  /// the schedule: the window's ends, not its width, say what the app asked for.
  @Test func aStalledWindowTakesTheRoundestOfItsEnds() {
    func window(
      job: Int64, enqueuer: Int64? = nil, stalled: Bool, cpu: Int64 = 10
    )
      -> ClockReadWindow
    {
      ClockReadWindow(
        sinceJobStart: .microseconds(job), sinceEnqueuerStart: .microseconds(enqueuer ?? job),
        stalled: stalled, cpu: .microseconds(cpu))
    }
    // 100 ms asked, read 5 µs into the job, then 60 ms off the CPU: 39.995…100.005 ms.
    let late = Duration.microseconds(39_995)
    #expect(
      VirtualDelay.delay(left: late, window: window(job: 60_010, stalled: true)) == 100_000_000)
    // The same numbers without a stall are a job that ran 60 ms before reading the clock:
    // the rule for a busy job keeps the duration near the read.
    #expect(
      VirtualDelay.delay(left: late, window: window(job: 60_010, stalled: false)) == 50_000_000)
    // Stalled before the read: the low end is the duration.
    #expect(
      VirtualDelay.delay(left: .microseconds(99_998), window: window(job: 60_003, stalled: true))
        == 100_000_000)
    // Read in the job before a hop, stalled between the two jobs.
    #expect(
      VirtualDelay.delay(
        left: .microseconds(39_990), window: window(job: 3, enqueuer: 60_015, stalled: true))
        == 100_000_000)
    // A stall past the whole sleep: the job's start still holds it.
    #expect(
      VirtualDelay.delay(left: .microseconds(-5_000), window: window(job: 305_004, stalled: true))
        == 300_000_000)
    // No end near a multiple of 5 ms (1,234 ms asked, stalled 20 ms): the ordinary rule.
    #expect(
      VirtualDelay.delay(left: .microseconds(1_213_700), window: window(job: 21_000, stalled: true))
        == VirtualDelay.roundest(from: .microseconds(1_213_700), to: .microseconds(1_234_700)))
    // Seen under the thread sanitizer in CI: 300 ms asked, 45 ms off the CPU before the
    // read, then 0.6 ms of slow code to the schedule. The low end is round within the CPU
    // time the window used, so the read came after the stall (the job's start, 345 ms away,
    // is not the read).
    #expect(
      VirtualDelay.delay(
        left: .microseconds(299_400), window: window(job: 45_600, stalled: true, cpu: 700))
        == 300_000_000)
    // Unstalled windows keep the rule above.
    #expect(
      VirtualDelay.delay(left: .microseconds(19_999), window: window(job: 30_000, stalled: false))
        == 20_000_000)
  }

  /// The stall detector counts real time the thread spent off the CPU.
  @Test func theStallDetectorSeesTimeOffTheCPU() {
    var detector = StallDetector()
    let start = ContinuousClock.now
    detector.jobStarted(at: start)
    // No real time has passed at `start`, whatever CPU the thread used since.
    #expect(!detector.stalled(now: start, cpu: StallDetector.threadCPUTime()))
    // 5 ms later with no CPU used: off the CPU (a sleep stands in for a preemption).
    usleep(5_000)
    #expect(detector.stalled(now: ContinuousClock.now, cpu: StallDetector.threadCPUTime()))
  }

  @Test func virtualDelaysRoundRealClockDeadlinesUpToAMillisecond() {
    #expect(VirtualDelay.nanoseconds(.milliseconds(300)) == 300_000_000)
    #expect(VirtualDelay.nanoseconds(.seconds(-1)) == 0)
    #expect(VirtualDelay.exact(Duration.microseconds(5)) == 5_000)
    // A whole millisecond: 300 ms less the time this thread lost between reading the clock
    // here and inside `until` (under CI's full suite it once lost 6 ms: 294 ms).
    let clock = ContinuousClock()
    let before = clock.now
    let delay = VirtualDelay.until(before.advanced(by: .milliseconds(300)), on: clock)
    let lost = VirtualDelay.nanoseconds(before.duration(to: clock.now))
    #expect(delay % 1_000_000 == 0)
    #expect(delay <= 300_000_000 && delay + lost + 1_000_000 >= 300_000_000)
    let past = clock.now.advanced(by: .seconds(-1))
    #expect(VirtualDelay.until(past, on: clock) == 0)
  }
}
