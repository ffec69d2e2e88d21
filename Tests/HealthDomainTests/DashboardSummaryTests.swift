import HealthDomain
import Testing

@Suite("DashboardSummary")
struct DashboardSummaryTests {
  @Test func computesFromKnownData() {
    let metrics = [
      metric(1, .heartRate, 60), metric(2, .heartRate, 70), metric(3, .heartRate, 95),
      metric(4, .restingHeartRate, 40),  // not part of the average
      metric(5, .steps, 4000), metric(6, .steps, 6500.5),
      metric(7, .sleepDuration, 7.5), metric(8, .sleepDuration, 1),
      metric(9, .sleepDeep, 2),  // a stage: not added to the duration
      metric(10, .distance, 3),
    ]
    let summary = DashboardSummary(metrics: metrics)
    #expect(summary.averageHeartRate == 75)
    #expect(summary.heartRateSamples == 3)
    #expect(summary.totalSteps == 10_500.5)
    #expect(summary.sleepDuration == 8.5)
  }

  @Test func emptyHasNoAverage() {
    #expect(DashboardSummary(metrics: []) == .empty)
    #expect(DashboardSummary.empty.averageHeartRate == nil)
  }
}
