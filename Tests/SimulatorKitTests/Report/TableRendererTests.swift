import Testing

@testable import SimulatorKit
@testable import SimulatorReports

@Suite("TableRenderer")
struct TableRendererTests {
  @Test func printsStepsLatencyTotalsCausesAndFailures() {
    let text = TableRenderer(explain: true).render(ReportFixtures.fanOutReport())
    #expect(
      text == """
        weft-sim · "large fan-out" · Flows/fanout-100k.flow · seed 1
        release build · Swift 6.3 · 100,000 views · 2026-05-01T10:00:00Z

        steps
          #  line  step                              result     wall      cpu  commits  delivered  rendered  skipped  wasted  jobs  sql   allocs
          1     2  views 100000 observe counter.va…  ok       412 ms   398 ms        0          0         0        0       0     0    0  200,004
          2     3  counter.set id=7 value=1          ok      1.20 ms  1.10 ms        1          1         1        0       0     1    0       12
          3     4  expect counter.total == 2         FAILED  3.00 µs  2.50 µs        0          0         0        0       0     0    0        0

        latency, commit → last affected view re-rendered
          #  line  samples      p50      p95      p99      max  commits/s
          2     3        1  18.2 µs  18.2 µs  18.2 µs  18.2 µs      833/s

        overall
          wall 413 ms · cpu 399 ms · commits 1 (2.42/s)
          delivered 1 · re-rendered 1 · skipped 0 · wasted 0
          MainActor jobs 1 · SQL statements 0 · allocations 200,016 (200,016/commit)
          latency p50 18.2 µs · p95 18.2 µs · p99 18.2 µs · max 18.2 µs (1 sample)
          peak memory 48.0 MiB · 480 B per attached view (100,000 views)

        why views re-rendered
          step 2 (line 3): counter.set id=7 value=1
            views  selector        commits  wasted
                1  \\Counter.value  v2

        failures
          Flows/fanout-100k.flow:4:1 (step 3) expectation: expected counter.total == 2, found 1
            expected: counter.total == 2
            actual:   counter.total == 1

        result: FAILED (1 failure)
        """ + "\n")
  }

  @Test func leavesCausesOutUnlessExplainIsOn() {
    let text = TableRenderer().render(ReportFixtures.fanOutReport())
    #expect(!text.contains("why views re-rendered"))
    #expect(text.contains("result: FAILED (1 failure)"))
  }

  @Test func flagsWastedRendersAndShortensLongCommitLists() {
    var report = ReportFixtures.fanOutReport()
    report.steps[1].explain.append(
      RenderCause(
        selector: "\\Counter.label", commitVersions: Array(2...101), views: 12, wastedRenders: 3))
    let text = TableRenderer(explain: true).render(report)
    #expect(
      text.contains(
        """
            views  selector        commits                  wasted
                1  \\Counter.value  v2
               12  \\Counter.label  v2 … v101 (100 commits)  ⚠ 3 wasted (value unchanged)
        """))
  }

  @Test func printsTheSweepWithReadableUnits() {
    let text = TableRenderer().render(ReportFixtures.sweepReport())
    #expect(
      text.contains(
        """
        sweep
              views  per delivery  fan-out/delivery  idle cost/commit  memory/view     wall      cpu
                  1        181 ns                 –              0 ns        420 B  4.00 µs  3.90 µs
                 10        183 ns           7.50 ns              0 ns        420 B  40.0 µs  39.0 µs
        """))
    #expect(
      text.contains(
        "  1,000,000        181 ns           7.50 ns           2.00 ns        420 B   4.00 s   3.90 s"
      ))
    #expect(text.hasSuffix("result: passed\n"))
  }

  @Test func saysWhenAllocationsWereNotCountedAndNoCommitReachedAView() {
    var report = ReportFixtures.fanOutReport()
    report.total.allocations = nil
    report.total.latency = .empty
    let text = TableRenderer().render(report)
    #expect(text.contains("allocations not counted (debug build or counter not linked)"))
    #expect(text.contains("latency: no commit reached a view"))
  }

  @Test func cutsLongStepsWithAnEllipsis() {
    #expect("views 100000 observe counter.value".truncated(to: 10) == "views 100…")
    #expect("short".truncated(to: 10) == "short")
  }

  @Test func namesEveryStatus() {
    #expect(StepStatus.allCases.map(TableRenderer.result) == ["ok", "FAILED", "ERROR", "skipped"])
  }
}
