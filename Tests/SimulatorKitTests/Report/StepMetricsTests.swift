import Foundation
import Testing
import WeftCore

@testable import SimulatorKit
@testable import SimulatorReports

@Suite("StepMetrics")
struct StepMetricsTests {
  @Test func derivedFiguresFollowTheirInputs() {
    let metrics = ReportFixtures.metrics(
      wall: 500_000_000, commits: 100, allocations: 1_250, views: 1_000, viewMemory: 480_000)
    #expect(metrics.commitsPerSecond == 200)
    #expect(metrics.bytesPerAttachedView == 480)
    #expect(metrics.allocationsPerCommit == 12.5)
  }

  @Test func derivedFiguresAreAbsentWithoutTheirInputs() {
    let metrics = StepMetrics()
    #expect(metrics.commitsPerSecond == 0)
    #expect(metrics.bytesPerAttachedView == nil)
    #expect(metrics.allocationsPerCommit == nil)
    var counted = StepMetrics()
    counted.allocations = 10
    #expect(counted.allocationsPerCommit == nil)  // no commit
  }

  @Test func accumulateSumsCountsAndTakesTheLargestMemory() {
    var total = ReportFixtures.metrics(
      wall: 10, cpu: 5, commits: 1, delivered: 2, rerendered: 3, skipped: 4, wasted: 1, jobs: 1,
      sql: 2, allocations: nil, peak: 100, views: 10, viewMemory: 50)
    total.accumulate(
      ReportFixtures.metrics(
        wall: 20, cpu: 6, commits: 2, delivered: 3, rerendered: 4, skipped: 5, wasted: 0,
        jobs: 2, sql: 3, allocations: 7, peak: 90, views: 20, viewMemory: 40))
    #expect(total.wallNanoseconds == 30)
    #expect(total.cpuNanoseconds == 11)
    #expect(total.commits == 3)
    #expect(total.deliveries == 5)
    #expect(total.viewsRerendered == 7)
    #expect(total.viewsSkipped == 9)
    #expect(total.wastedRenders == 1)
    #expect(total.mainActorJobs == 3)
    #expect(total.sqlStatements == 5)
    #expect(total.allocations == 7)
    #expect(total.peakMemoryBytes == 100)
    #expect(total.attachedViews == 20)
    #expect(total.viewMemoryBytes == 50)
  }

  @Test func accumulateSumsTheMainActorDeliveryTime() {
    var timed = StepMetrics()
    timed.mainActorDeliveries = 2
    timed.mainActorDeliveryNanoseconds = 40
    var total = StepMetrics()
    total.accumulate(timed)
    total.accumulate(timed)
    #expect(total.mainActorDeliveries == 4)
    #expect(total.mainActorDeliveryNanoseconds == 80)
  }

  @Test func allocationsStayUncountedWhenNoStepCountedThem() {
    let total = StepMetrics.total(
      of: [ReportFixtures.metrics(allocations: nil), ReportFixtures.metrics(allocations: nil)])
    #expect(total.allocations == nil)
  }

  @Test func latencySummariesMergeAsAnUpperBound() {
    let low = LatencyStats(count: 10, p50: 100, p95: 200, p99: 300, max: 400)
    let high = LatencyStats(count: 5, p50: 150, p95: 150, p99: 500, max: 600)
    #expect(
      low.mergingUpperBound(high) == LatencyStats(count: 15, p50: 150, p95: 200, p99: 500, max: 600)
    )
    #expect(low.mergingUpperBound(.empty) == low)
    #expect(LatencyStats.empty.mergingUpperBound(high) == high)
  }

  @Test func accumulatorMergesHistogramsForExactPercentiles() {
    var first = Histogram()
    var second = Histogram()
    for value in 1...90 { first.record(nanoseconds: UInt64(value)) }
    for value in 91...100 { second.record(nanoseconds: UInt64(value) * 1_000) }
    var accumulator = MetricsAccumulator()
    accumulator.add(
      ReportFixtures.metrics(commits: 90, latency: LatencyStats(first)), latencies: first)
    accumulator.add(
      ReportFixtures.metrics(commits: 10, latency: LatencyStats(second)), latencies: second)
    let total = accumulator.metrics
    var all = first
    all.merge(second)
    #expect(total.commits == 100)
    #expect(total.latency == LatencyStats(all))
    #expect(total.latency.count == 100)
    #expect(total.latency.p50Nanoseconds == all.percentileNanoseconds(0.5))
    #expect(total.latency.p50Nanoseconds < LatencyStats(second).p50Nanoseconds)
  }

  @Test func accumulatorFallsBackToTheBoundForStepsWithoutHistograms() {
    var accumulator = MetricsAccumulator()
    let summary = LatencyStats(count: 3, p50: 10, p95: 20, p99: 30, max: 40)
    accumulator.add(ReportFixtures.metrics(latency: summary))
    #expect(accumulator.metrics.latency == summary)
  }

  @Test func latencyStatsConvertsWeftCoreSummaries() {
    let summary = LatencySummary(
      count: 4, p50: .nanoseconds(18_000), p95: .microseconds(20), p99: .microseconds(21),
      max: .milliseconds(1))
    #expect(
      LatencyStats(summary)
        == LatencyStats(count: 4, p50: 18_000, p95: 20_000, p99: 21_000, max: 1_000_000))
  }

  @Test func jsonCarriesDerivedFiguresAndDecodingIgnoresThem() throws {
    let metrics = ReportFixtures.metrics(
      wall: 500_000_000, commits: 100, allocations: 1_250, views: 1_000, viewMemory: 480_000)
    let data = try JSONRenderer.encoder().encode(metrics)
    let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["commitsPerSecond"] as? Double == 200)
    #expect(object["bytesPerAttachedView"] as? Double == 480)
    #expect(object["allocationsPerCommit"] as? Double == 12.5)
    let decoded = try JSONRenderer.decoder().decode(StepMetrics.self, from: data)
    #expect(decoded == metrics)
  }

  @Test func theMainActorDeliveryTimeRoundTripsAndOlderReportsReadAsZero() throws {
    var metrics = ReportFixtures.metrics(delivered: 1_000, jobs: 1)
    metrics.mainActorDeliveries = 1_000
    metrics.mainActorDeliveryNanoseconds = 7_500
    let data = try JSONRenderer.encoder().encode(metrics)
    #expect(try JSONRenderer.decoder().decode(StepMetrics.self, from: data) == metrics)
    var object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    object["mainActorDeliveries"] = nil
    object["mainActorDeliveryNanoseconds"] = nil
    let older = try JSONRenderer.decoder().decode(
      StepMetrics.self, from: JSONSerialization.data(withJSONObject: object))
    #expect(older.mainActorDeliveries == 0)
    #expect(older.mainActorDeliveryNanoseconds == 0)
    #expect(older.deliveries == 1_000)
  }

  /// `deliveries` was `notificationsDelivered` in reports written before 2026-11-28: they
  /// still decode, and new ones carry one name, the engine's and the gate's.
  @Test func deliveriesKeepsOneNameAndOlderReportsStillDecode() throws {
    let data = try JSONRenderer.encoder().encode(ReportFixtures.metrics(delivered: 321, jobs: 4))
    var object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["deliveries"] as? Int == 321)
    #expect(object["notificationsDelivered"] == nil)
    object["notificationsDelivered"] = object.removeValue(forKey: "deliveries")
    let older = try JSONRenderer.decoder().decode(
      StepMetrics.self, from: JSONSerialization.data(withJSONObject: object))
    #expect(older.deliveries == 321)
    #expect(older.mainActorJobs == 4)
  }

  @Test func uncountedAllocationsAreLeftOutOfJSON() throws {
    let data = try JSONRenderer.encoder().encode(ReportFixtures.metrics(allocations: nil))
    let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["allocations"] == nil)
    #expect(object["allocationsPerCommit"] == nil)
  }
}

@Suite("RenderCauseTally")
struct RenderCauseTallyTests {
  @Test func groupsRendersBySelectorWithSortedUniqueCommits() {
    var tally = RenderCauseTally()
    tally.record(selector: "\\Dashboard.summary", commit: 12, wasted: false)
    tally.record(selector: "\\Form.result", commit: 13, wasted: true)
    tally.record(selector: "\\Dashboard.summary", commit: 11, wasted: false)
    tally.record(selector: "\\Dashboard.summary", commit: 12, wasted: false)
    tally.record(selector: "\\Form.result", commit: 13, views: 4, wasted: 1)
    #expect(
      tally.causes == [
        RenderCause(
          selector: "\\Form.result", commitVersions: [13], views: 5, wastedRenders: 2),
        RenderCause(
          selector: "\\Dashboard.summary", commitVersions: [11, 12], views: 3, wastedRenders: 0),
      ])
    #expect(tally.causes.map(\.isWasted) == [true, false])
  }

  @Test func equalCountsOrderBySelector() {
    var tally = RenderCauseTally()
    tally.record(selector: "b", commit: 1, wasted: false)
    tally.record(selector: "a", commit: 1, wasted: false)
    #expect(tally.causes.map(\.selector) == ["a", "b"])
    #expect(!tally.isEmpty)
    #expect(RenderCauseTally().causes.isEmpty)
  }
}
