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

  /// A deadline read 20 ms of real time before the sleep: `RuntimeClock` sleeps exactly the
  /// 1,234 ms asked for; `ContinuousClock`'s real deadline comes back as a guess.
  @Test func theRuntimeClockSleepsExactlyWhatWasAskedForEvenWhenPreempted() async throws {
    let result = try await run("clock")
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.standard.contains("1234 ms RuntimeClock slept 1.234 seconds"), "\(result.standard)")
    #expect(!result.standard.contains("ContinuousClock slept 1.234 seconds"), "\(result.standard)")
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
    #expect(first.standard.contains("commits: 1002"), "\(first.standard)")
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
