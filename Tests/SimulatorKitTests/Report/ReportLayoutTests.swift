import Foundation
import HealthSimulator
import Testing

@testable import SimulatorKit
@testable import SimulatorReports

@Suite("Reports lead with what was asked")
struct ReportLayoutTests {
  func position(of text: String, in html: String) throws -> String.Index {
    try #require(html.range(of: text), "\(text) is on the page").lowerBound
  }

  @Test func aSweepPageStartsWithTheSweepChartsAndTable() throws {
    let html = HTMLRenderer().render(ReportFixtures.sweepReport())
    let sweep = try position(of: "<h2>Sweep: cost against attached views</h2>", in: html)
    let sweepTable = try position(of: "<th>per delivery</th>", in: html)
    let steps = try position(of: "<h2>Steps of the run at N = 1,000,000</h2>", in: html)
    let latency = try position(of: "<h2>Latency, commit", in: html)
    #expect(sweep < sweepTable)
    #expect(sweepTable < steps)
    #expect(steps < latency)
    // Nothing but the title, meta and verdict come before the sweep.
    #expect(!html[..<sweep].contains("<table"))
    #expect(!html[..<sweep].contains("<svg"))
  }

  @Test func aPlainRunKeepsItsOrderAndTitle() throws {
    let html = HTMLRenderer().render(ReportFixtures.fanOutReport())
    #expect(html.contains("<h2>Steps</h2>"))
    #expect(!html.contains("Sweep"))
    #expect(try position(of: "<h2>Steps</h2>", in: html) < position(of: "<h2>Overall", in: html))
  }

  @Test func everyTableAndChartScrollsInsideItsOwnBox() {
    for html in [
      HTMLRenderer().render(ReportFixtures.sweepReport()),
      HTMLRenderer().render(ReportFixtures.fanOutReport()),
    ] {
      let tables = html.components(separatedBy: "<table").count - 1
      #expect(tables > 0)
      #expect(html.components(separatedBy: "<div class=\"wide\"><table").count - 1 == tables)
      let charts = html.components(separatedBy: "<svg ").count - 1
      #expect(charts > 0)
      #expect(html.components(separatedBy: "<div class=\"wide\"><svg ").count - 1 == charts)
    }
    #expect(HTMLRenderer.style.contains(".wide{overflow-x:auto;max-width:100%}"))
  }

  /// A failure whose message is the runner's diagnostic: it starts with its own location.
  static func diagnosedReport() -> RunReport {
    var report = ReportFixtures.fanOutReport()
    report.file = "s3.flow"
    report.failures = [
      RunFailure(
        kind: .error, step: 1, line: 2, column: 1,
        message: """
          s3.flow:2:1: error: no views named 'nosuch' are attached
              2 | views detach nosuch
                | ^~~~~~~~~~~~~~~~~~~
          """)
    ]
    return report
  }

  @Test func aFailedStepPrintsItsLocationOnceInTheTable() {
    let text = TableRenderer().render(Self.diagnosedReport())
    #expect(
      text.hasSuffix(
        """

        failures
          s3.flow:2:1 (step 1) error: no views named 'nosuch' are attached
            2 | views detach nosuch
              | ^~~~~~~~~~~~~~~~~~~

        result: FAILED (1 failure)

        """))
    #expect(text.components(separatedBy: "s3.flow:2:1").count - 1 == 1)
  }

  @Test func aFailedStepPrintsItsLocationOnceInTheHTML() {
    let html = HTMLRenderer().render(Self.diagnosedReport())
    #expect(
      html.contains(
        "<li><code>s3.flow:2:1</code> error: no views named &#39;nosuch&#39; are attached<pre>"
          + "    2 | views detach nosuch\n      | ^~~~~~~~~~~~~~~~~~~</pre></li>"))
    #expect(html.components(separatedBy: "s3.flow:2:1").count - 1 == 1)
  }
}

/// Not serialized (it was while every launch of the health app reset the process-wide
/// `PerformanceMonitor.shared` and ran on `MainActorDeliveries.shared`): each launch now owns
/// its monitor and delivery queue, so this suite's runs no longer share engine state.
@Suite("Reports lead with what was asked: a real run")
@MainActor
struct ReportLayoutRunTests {

  @Test func aFailedExpectationPrintsItsLocationOnce() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-sim-layout-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let flow = directory.appendingPathComponent("s3.flow").path
    try "flow \"s3\"\nexpect app.tab == insights\n".write(
      toFile: flow, atomically: true, encoding: .utf8)
    let captured = Captured()
    #expect(
      await Simulator.main(
        [flow, "--no-progress"], plugin: HealthSimulation.plugin, output: captured.output) == 1)
    let failures = try #require(captured.standard.components(separatedBy: "\nfailures\n").last)
    #expect(
      failures == """
          \(flow):2:1 (step 1) error: expectation failed: app.tab is dashboard, expected == insights
            2 | expect app.tab == insights
              | ^~~~~~~~~~~~~~~~~~~~~~~~~~
            expected: app.tab == insights
            actual:   app.tab == dashboard

        result: FAILED (1 failure)

        """)
  }
}
