import Testing
import WeftRuntime

/// Comparing two runs' job records: the first record that differs, and the cause it names.
@Suite("JobTrace: where two runs part")
struct JobTraceTests {
  func record(
    _ index: UInt64, task: UInt64 = 1, runnable: Int = 1, time: UInt64 = 0,
    outside: Bool = false, mark: String = "step 1, line 3: tap"
  ) -> JobRecord {
    JobRecord(
      index: index, lane: "global", task: task, runnable: runnable, virtualTime: time,
      fromOtherThread: outside, mark: mark)
  }

  @Test func equalTracesHaveNoDivergence() {
    let trace = [record(0), record(1, task: 2), record(2, task: 0)]
    #expect(JobTrace.firstDivergence(trace, trace) == nil)
    #expect(JobTrace.firstDivergence([], []) == nil)
  }

  @Test func theFirstDifferingJobIsNamedWithItsStep() throws {
    let first = [record(0), record(1, task: 2), record(2, task: 3, runnable: 2)]
    let second = [record(0), record(1, task: 2), record(2, task: 4, runnable: 2)]
    let divergence = try #require(JobTrace.firstDivergence(first, second))
    #expect(divergence.first?.task == 3)
    #expect(divergence.second?.task == 4)
    #expect(divergence.description.hasPrefix("job 2 (during step 1, line 3: tap)"))
    #expect(divergence.description.contains("run 1 ran task 3"))
    #expect(divergence.description.contains("run 2 ran task 4"))
    #expect(divergence.description.contains("something outside the schedule"))
  }

  @Test func aJobFromAnotherThreadIsNamedAsTheCause() throws {
    let first = [record(0), record(1, runnable: 3, outside: true)]
    let second = [record(0), record(1, runnable: 1, outside: true)]
    let divergence = try #require(JobTrace.firstDivergence(first, second))
    #expect(divergence.description.contains("enqueued by another thread"))
    #expect(divergence.description.contains("a thread outside the runtime"))
  }

  @Test func differentVirtualTimesPointAtAClockTheRuntimeDoesNotAnswer() throws {
    let divergence = try #require(
      JobTrace.firstDivergence([record(0, time: 5_000_000)], [record(0, time: 6_000_000)]))
    #expect(divergence.description.contains("Virtual time differs"))
  }

  @Test func aRunThatEndsEarlierDiverges() throws {
    let divergence = try #require(JobTrace.firstDivergence([record(0), record(1)], [record(0)]))
    #expect(divergence.second == nil)
    #expect(divergence.description.contains("run 2 ran nothing more (it had ended)"))
  }
}
