import Foundation
import Testing

@testable import SimulatorKit
@testable import SimulatorReports

@Suite("weft-sim sweep: one point from a run") @MainActor
struct SweepPointTests {
  /// A run: attach, `deliveries` steps that re-render 1,000 views each, and idle commit steps
  /// with the given CPU nanoseconds.
  static func report(idleCPU: [UInt64], deliveryCPU: UInt64 = 20_000) -> RunReport {
    var steps = [
      StepReport(
        index: 1, line: 1, source: "views 1000 observe form.value", status: .passed,
        metrics: ReportFixtures.metrics(
          commits: 0, delivered: 0, rerendered: 0, jobs: 0, latency: .empty, views: 1_000,
          viewMemory: 150_000))
    ]
    for index in 0..<3 {
      steps.append(
        StepReport(
          index: steps.count + 1, line: 2, source: "form.set value=\(index)", status: .passed,
          metrics: ReportFixtures.metrics(
            cpu: deliveryCPU, delivered: 1_000, rerendered: 1_000, views: 1_000,
            viewMemory: 150_000)))
    }
    for cpu in idleCPU {
      steps.append(
        StepReport(
          index: steps.count + 1, line: 3, source: "form.set notes=x", status: .passed,
          metrics: ReportFixtures.metrics(
            cpu: cpu, delivered: 0, rerendered: 0, views: 1_000, viewMemory: 150_000)))
    }
    return RunReport(
      flow: "sweep", file: "sweep.flow", seed: 1,
      configuration: RunConfiguration(
        viewsAttached: 1_000, buildConfiguration: .release, swiftVersion: "6.3",
        date: ReportFixtures.date),
      steps: steps, total: StepMetrics.total(of: steps.map(\.metrics)), failures: [])
  }

  @Test func theIdleCostIsTheMedianSoOnePreemptedStepDoesNotMoveIt() {
    let point = SweepCommand.point(
      Self.report(idleCPU: [5_000, 4_000, 158_000, 6_000, 5_000]), views: 1_000)
    #expect(point.idleCostPerCommitNanoseconds == 5_000)
    // Each delivery step: 20,000 ns less one idle commit's 5,000 ns, over 1,000 views.
    #expect(point.perDeliveryNanoseconds == 15)
  }

  @Test func anEvenNumberOfIdleStepsAveragesTheMiddleTwo() {
    let point = SweepCommand.point(
      Self.report(idleCPU: [4_000, 9_000, 5_000, 7_000]), views: 1_000)
    #expect(point.idleCostPerCommitNanoseconds == 6_000)
  }

  @Test func theFanOutCostIsTheMainActorJobsTimePerMainActorDelivery() {
    var report = Self.report(idleCPU: [5_000])
    #expect(SweepCommand.point(report, views: 1_000).fanOutPerDeliveryNanoseconds == nil)
    for index in report.steps.indices where report.steps[index].metrics.viewsRerendered > 0 {
      report.steps[index].metrics.mainActorDeliveries = 1_000
      report.steps[index].metrics.mainActorDeliveryNanoseconds = 6_000 + UInt64(index) * 1_000
    }
    // The three delivery steps: 7,000 + 8,000 + 9,000 ns over 3,000 deliveries; no idle cost
    // subtracted.
    #expect(SweepCommand.point(report, views: 1_000).fanOutPerDeliveryNanoseconds == 8)
  }

  @Test func noIdleStepMeansNoIdleCost() {
    let point = SweepCommand.point(Self.report(idleCPU: []), views: 1_000)
    #expect(point.idleCostPerCommitNanoseconds == 0)
    #expect(point.perDeliveryNanoseconds == 20)
    #expect(point.memoryPerViewBytes == 150)
  }
}
