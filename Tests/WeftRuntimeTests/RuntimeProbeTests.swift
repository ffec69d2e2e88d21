import Foundation
import TestProcesses
import Testing

/// The runtime installed in a real process (`weft-runtime-probe`, built next to this test
/// bundle): every job on one thread, sleeps on virtual time, settling, seeded schedules.
@Suite("DeterministicRuntime in a process")
struct RuntimeProbeTests {
  static var probe: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("weft-runtime-probe")
  }

  func run(_ arguments: String...) async throws -> ChildProcess.Result {
    try await ChildProcess.run(Self.probe, arguments)
  }

  @Test func everyJobAndSleepRunsOnOneThreadInVirtualTime() async throws {
    let result = try await run("order")
    #expect(result.status == 0, "\(result.error)")
    let lines = result.standard.split(separator: "\n").map(String.init)
    #expect(lines.contains("0 ms hop 1"))
    #expect(lines.contains("300 ms slept 300 ms on ContinuousClock"))
    #expect(lines.contains("2300 ms slept 2 s on SuspendingClock"))
    #expect(lines.contains("2300 ms slept 5 µs on RuntimeClock"))
    #expect(lines.contains("2300 ms MainActor.run main"))
    #expect(lines.contains("902300 ms slept 15 minutes"))
    #expect(lines.filter { $0.contains("group") }.count == 3)
    #expect(lines.contains("off-thread events 0"))
  }

  /// Without a fixed hashing seed and address layout, a set of objects iterates in a new
  /// order on every run; `DeterministicProcess.ensure()` (what `Simulator.start` calls) fixes
  /// both, so five runs agree.
  @Test func aFixedProcessIteratesObjectSetsInTheSameOrderEveryRun() async throws {
    var outputs: Set<String> = []
    for _ in 0..<5 {
      let result = try await run("process")
      #expect(result.status == 0, "\(result.error)")
      #expect(result.standard.hasPrefix("fixed true hashing true"), "\(result.standard)")
      outputs.insert(result.standard)
    }
    #expect(outputs.count == 1, "\(outputs.sorted())")
  }

  /// A deadline read 20 ms of real time before the sleep: `RuntimeClock` and, with the
  /// process's clock reads virtual (the probe links CDeterministicWorld), `ContinuousClock`
  /// both sleep exactly the 1,234 ms asked for — no rounding rule decides it.
  @Test func everyClockSleepsExactlyWhatWasAskedForEvenWhenPreempted() async throws {
    let result = try await run("clock")
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.standard.contains("1234 ms RuntimeClock slept 1.234 seconds"), "\(result.standard)")
    #expect(
      result.standard.contains("2468 ms ContinuousClock slept 1.234 seconds"),
      "\(result.standard)")
  }

  /// `Date()`, `ContinuousClock`, `SuspendingClock`, `DispatchTime`, `clock_gettime`,
  /// `gettimeofday` and `time` read virtual time: each moves exactly 1 s across a 1 s sleep and
  /// not at all across 5 ms of real work, the wall clock starts at 2026-01-15T09:00:00Z, and
  /// `UUID()`, `UInt64.random`, `Double.random`, `Int.random` and the system generator repeat
  /// run after run; the real clock (what reports read) still moves.
  @Test func clockReadsAndRandomDrawsAreTheRuntimesAndRepeat() async throws {
    let first = try await run("reads")
    #expect(first.status == 0, "\(first.error)")
    let lines = first.standard.split(separator: "\n").map(String.init)
    #expect(lines.contains("answers clock reads true"))
    #expect(lines.contains("before date 1768467600.0"))
    #expect(lines.contains("after date 1768467601.0"))
    #expect(lines.contains("before continuous Instant(_value: 1000000.0 seconds)"))
    #expect(lines.contains("after continuous Instant(_value: 1000001.0 seconds)"))
    #expect(lines.contains("after suspending Instant(_value: 1000001.0 seconds)"))
    #expect(lines.contains("after dispatch 1000001000000000"))
    #expect(lines.contains("after clock_gettime 1000001000000000 1768467601000000000"))
    #expect(lines.contains("after gettimeofday 1768467601 0 time 1768467601"))
    #expect(lines.contains("busy 5 ms: continuous moved 0.0 seconds"))
    #expect(lines.contains("busy 5 ms: real moved at least 5 ms true"))
    let draws = lines.filter { $0.contains(" uuid ") || $0.contains(" random ") }
    #expect(draws.count == 4)
    #expect(Set(draws.map { $0.split(separator: " ").dropFirst().joined() }).count == 4)
    let second = try await run("reads")
    #expect(second.standard == first.standard)
  }

  /// The process stopped for 300 ms of real time between reading a 100 ms deadline and
  /// sleeping on it: the sleep still lasts 100 ms of virtual time.
  @Test func aSleepAcrossAStoppedProcessIsAsLongAsAsked() async throws {
    let result = try await run("stopped")
    #expect(result.status == 0, "\(result.error)")
    #expect(result.standard.contains("stopped at least 300 ms of real time true"))
    #expect(result.standard.contains("slept 0.1 seconds"), "\(result.standard)")
  }

  @Test func theSameScheduleGivesTheSameTranscript() async throws {
    let first = try await run("order")
    let second = try await run("order")
    #expect(first.standard == second.standard)
    let seeded = try await run("settle", "17")
    let again = try await run("settle", "17")
    #expect(seeded.standard == again.standard)
  }

  @Test func settlingLeavesTimersPendingAndAdvanceRunsThemInOrder() async throws {
    let result = try await run("settle")
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.standard.hasPrefix(
        """
        0 ms background hops done
        0 ms settled; timers pending: [0.3 seconds, 0.3 seconds]
        100 ms advanced 100 ms; timers pending: 2
        300 ms debounce fired
        300 ms second timer at the same instant fired
        350 ms advanced 250 ms more; timers pending: 0
        """), "\(result.standard)")
  }

  @Test func arrivalOrderHidesThePlantedRaceAndSomeScheduleShowsIt() async throws {
    let plain = try await run("race")
    #expect(plain.standard.contains("final 2"), "\(plain.standard)")
    var found: UInt64?
    for seed in UInt64(1)...100 {
      let result = try await run("race", "\(seed)")
      if result.standard.contains("final 1") {
        found = seed
        break
      }
    }
    let seed = try #require(found, "no schedule among 100 lost the update")
    let replay = try await run("race", "\(seed)")
    #expect(replay.standard.contains("final 1"))
  }

  /// WeftPersistence joins the runtime: every SQLite call of 1,000 writes and of the
  /// observation's re-fetches runs on the runtime's thread, and how many re-fetches the
  /// observation merged is the same on every run of one schedule.
  @Test func persistenceRunsOnTheRuntimeThreadAndRepeats() async throws {
    let first = try await run("persistence")
    #expect(first.status == 0, "\(first.error)")
    #expect(first.standard.contains("off-thread events 0"), "\(first.standard)")
    #expect(first.standard.contains("last 500"), "\(first.standard)")
    #expect(first.standard.contains("commits: 1003"), "\(first.standard)")
    // Date(), UUID() and SQLite's 'now' are the runtime's: the stamped row repeats (below).
    #expect(first.standard.contains("stamped '1768467600.0 "), "\(first.standard)")
    #expect(first.standard.contains("2026-01-15T09:00:00.000"), "\(first.standard)")
    let second = try await run("persistence")
    #expect(second.standard == first.standard)
    let seeded = try await run("persistence", "5")
    let seededAgain = try await run("persistence", "5")
    #expect(seeded.standard == seededAgain.standard)
    #expect(seeded.standard.contains("off-thread events 0"))
  }

  @Test func aTaskNobodyResumesIsReportedNotHung() async throws {
    let result = try await run("stall")
    #expect(result.status == 1)
    #expect(result.error.contains("the app cannot go on"))
    #expect(result.error.contains("continuation never resumed"))
    // By task name where Swift has one (the probe reads it as the task suspends), and by id.
    #expect(result.error.contains("tasks last seen suspending on a continuation"))
    #expect(result.error.contains("'waits-for-login' (task "))
    #expect(!result.error.contains("resumed-and-done"))
  }
}
