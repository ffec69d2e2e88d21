import Foundation
import WeftCore

@testable import SimulatorKit
@testable import SimulatorReports

/// Reports built by hand for the renderer and gate tests: fixed dates, fixed numbers.
enum ReportFixtures {
  /// 2026-05-01T10:00:00Z.
  static let date = Date(timeIntervalSince1970: 1_777_629_600)

  static func metrics(
    wall: UInt64 = 1_200_000, cpu: UInt64 = 1_100_000, commits: UInt64 = 1,
    delivered: UInt64 = 1, rerendered: UInt64 = 1, skipped: UInt64 = 0, wasted: UInt64 = 0,
    jobs: UInt64 = 1, sql: UInt64 = 0, allocations: UInt64? = 12,
    latency: LatencyStats = LatencyStats(
      count: 1, p50: 18_200, p95: 18_200, p99: 18_200, max: 18_200),
    peak: UInt64 = 50_331_648, views: UInt64 = 100_000, viewMemory: UInt64 = 48_000_000
  ) -> StepMetrics {
    var metrics = StepMetrics()
    metrics.wallNanoseconds = wall
    metrics.cpuNanoseconds = cpu
    metrics.commits = commits
    metrics.deliveries = delivered
    metrics.viewsRerendered = rerendered
    metrics.viewsSkipped = skipped
    metrics.wastedRenders = wasted
    metrics.mainActorJobs = jobs
    metrics.sqlStatements = sql
    metrics.allocations = allocations
    metrics.latency = latency
    metrics.peakMemoryBytes = peak
    metrics.attachedViews = views
    metrics.viewMemoryBytes = viewMemory
    return metrics
  }

  /// A three-step fan-out run: attach, one change, a failed expectation.
  static func fanOutReport() -> RunReport {
    let attach = StepReport(
      index: 1, line: 2, source: "views 100000 observe counter.value", status: .passed,
      metrics: metrics(
        wall: 412_000_000, cpu: 398_000_000, commits: 0, delivered: 0, rerendered: 0, jobs: 0,
        allocations: 200_004, latency: .empty))
    let change = StepReport(
      index: 2, line: 3, source: "counter.set id=7 value=1", status: .passed,
      metrics: metrics(),
      explain: [
        RenderCause(selector: "\\Counter.value", commitVersions: [2], views: 1, wastedRenders: 0)
      ])
    let expectation = ExpectationOutcome(subject: "counter.total", expected: "2", actual: "1")
    let expect = StepReport(
      index: 3, line: 4, source: "expect counter.total == 2", status: .failed,
      message: "expected counter.total == 2, found 1", expectation: expectation,
      metrics: metrics(
        wall: 3_000, cpu: 2_500, commits: 0, delivered: 0, rerendered: 0, jobs: 0,
        allocations: 0, latency: .empty))
    let steps = [attach, change, expect]
    return RunReport(
      flow: "large fan-out", file: "Flows/fanout-100k.flow", seed: 1,
      configuration: RunConfiguration(
        viewsAttached: 100_000, buildConfiguration: .release, swiftVersion: "6.3", date: date),
      steps: steps, total: StepMetrics.total(of: steps.map(\.metrics)),
      failures: [
        RunFailure(
          kind: .expectation, step: 3, line: 4, column: 1,
          message: "expected counter.total == 2, found 1", expectation: expectation)
      ])
  }

  /// A sweep over 1 … 1M views.
  static func sweepReport() -> RunReport {
    var report = fanOutReport()
    report.failures = []
    report.steps[2].status = .passed
    report.steps[2].expectation = nil
    report.steps[2].message = nil
    report.sweep = SweepReport(
      points: [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000].map { views in
        SweepPoint(
          views: views, perDeliveryNanoseconds: 180 + Double(views % 7),
          idleCostPerCommitNanoseconds: views >= 1_000 ? 2 : 0, memoryPerViewBytes: 420,
          wallNanoseconds: views * 4_000, cpuNanoseconds: views * 3_900,
          fanOutPerDeliveryNanoseconds: views >= 10 ? 7.5 : nil)
      })
    return report
  }
}
