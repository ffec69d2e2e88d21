import Foundation
import HealthSimulator
import SimulatorFlow
import SimulatorKit
import Testing

/// `Flows/submit-latency.flow` (issue 15's realistic step, gated): every measured step is a
/// real submit whose one dashboard commit re-renders exactly the view of the summary, while
/// the idle views of the same cell are skipped. Run in-process with the health plug-in, with
/// fewer views and submits than the bundled file (the gate runs it at full size in release).
@Suite("Flows/submit-latency.flow")
@MainActor
struct SubmitLatencyFlowTests {
  /// The package root (this file is Tests/HealthSimulatorTests/SubmitLatencyFlowTests.swift).
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func source() throws -> String {
    try String(
      contentsOf: root.appendingPathComponent("Flows/submit-latency.flow"), encoding: .utf8)
  }

  @Test func theBundledFlowAttachesOneHundredThousandViewsOneOnTheSummary() throws {
    let source = try Self.source()
    #expect(source.contains("views 99999 observe dashboard.summary.totalSteps as idle"))
    #expect(source.contains("views 1 observe dashboard.summary as summary"))
    #expect(source.contains("repeat 200 {"))
    #expect(source.contains("form.set metric=heartRate"))
  }

  @Test func eachSubmitRendersTheSummaryViewOnceAndNoIdleView() async throws {
    let source = try Self.source()
      .replacingOccurrences(of: "views 99999 observe", with: "views 99 observe")
      .replacingOccurrences(of: "repeat 200 {", with: "repeat 5 {")
    let app = try await HealthSimulation.make(seed: 1)
    let flow = try Flow.parse(
      source: source, file: "submit-latency.flow", knownPaths: Set(app.observablePathNames),
      options: Flow.ParseOptions(now: app.now, commands: HealthSimulation.plugin.catalog))
    let runner = FlowRunner(
      app: app, plugin: HealthSimulation.plugin, options: .init(explain: true))
    let report = await runner.run(flow)
    runner.tearDown()
    await app.shutDown()
    #expect(report.failures.isEmpty, "\(report.failures)")
    let submits = report.steps.filter {
      $0.source.trimmingCharacters(in: .whitespaces) == "form.submit"
    }
    #expect(submits.count == 5)
    for step in submits {
      #expect(step.metrics.viewsRerendered == 1)
      #expect(step.metrics.viewsSkipped == 99)
      #expect(step.metrics.wastedRenders == 0)
      #expect(step.metrics.sqlStatements > 0)
      // One commit of the dashboard caused the render. (Jobs, commits and latency samples
      // are process-wide counters that tests running beside this one add to; the gate pins
      // them in a process of their own.)
      #expect(step.explain.count == 1)
      #expect(step.explain.first?.selector == "DashboardClient.dashboard.summary")
      #expect(step.explain.first?.views == 1)
      #expect(step.explain.first?.commitVersions.count == 1)
    }
  }
}
