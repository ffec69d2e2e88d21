import Testing

@testable import SimulatorKit

/// `explore`'s outcome table: grouping, the paths that differ, the names of schedules.
@Suite struct ExploreOutcomesTests {
  func report() -> ExploreOutcomes {
    var report = ExploreOutcomes(flow: "f.flow")
    let same = ["a": "1", "b": "x y"]
    report.add(schedule: 0, failures: [], final: same.merging(["c": "2"]) { $1 })
    report.add(
      schedule: 1, failures: ["f.flow:3:1: error: c is 1"], final: same.merging(["c": "1"]) { $1 })
    report.add(schedule: 2, failures: [], final: same.merging(["c": "2"]) { $1 })
    report.seconds = 0.5
    return report
  }

  @Test func runsGroupByFailuresAndFinalValuesFailingFirst() {
    let report = report()
    #expect(report.outcomes.map(\.schedules) == [[0, 2], [1]])
    #expect(report.ordered.map(\.schedules) == [[1], [0, 2]])
    #expect(report.differingPaths == ["c"])
    #expect(report.schedulesPerSecond == 6)
  }

  @Test func theSummaryShowsOnlyWhatDiffersUnlessVerbose() {
    let text = report().render(program: "sim", verbose: false)
    #expect(
      text == """
        explore · f.flow · random · 3 schedules (6.0/s) · 2 distinct outcomes · 1 failing

        outcome 1: FAILED in 1 of 3 schedules (first: schedule seed 1)
          f.flow:3:1: error: c is 1
          final: c=1
          replay: sim run f.flow --schedule-seed 1

        outcome 2: passed in 2 of 3 schedules (first: schedule 0, arrival order)
          final: c=2
          replay: sim run f.flow --schedule-seed arrival
        """)
    let verbose = report().render(program: "sim", verbose: true)
    #expect(verbose.contains("  final: a=1 b=x y c=1\n"))
  }

  @Test func scheduleArgumentsNameArrivalOrder() {
    #expect(ScheduleArgument("arrival")?.seed == nil)
    #expect(ScheduleArgument("arrival") != nil)
    #expect(ScheduleArgument("0")?.seed == nil)
    #expect(ScheduleArgument("0") != nil)
    #expect(ScheduleArgument("17")?.seed == 17)
    #expect(ScheduleArgument("-1") == nil)
    #expect(ScheduleArgument("later") == nil)
  }
}
