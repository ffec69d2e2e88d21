import Foundation
import Testing

@testable import SimulatorKit
@testable import SimulatorReports

@Suite("JSONRenderer")
struct JSONRendererTests {
  @Test func equalReportsGiveByteIdenticalText() {
    let first = JSONRenderer().render(ReportFixtures.fanOutReport())
    let second = JSONRenderer().render(ReportFixtures.fanOutReport())
    #expect(first == second)
    #expect(first.hasSuffix("}\n"))
  }

  @Test func roundTripsEveryField() throws {
    for report in [ReportFixtures.fanOutReport(), ReportFixtures.sweepReport()] {
      let text = JSONRenderer().render(report)
      #expect(try JSONRenderer().decode(Data(text.utf8)) == report)
    }
  }

  @Test func writesTheVersionedHeaderSortedAndPretty() {
    let text = JSONRenderer().render(ReportFixtures.fanOutReport())
    #expect(text.hasPrefix("{\n  \"configuration\" : {\n"))
    #expect(text.contains("\"schemaVersion\" : 1,"))
    #expect(text.contains("\"tool\" : \"weft-sim\""))
    #expect(text.contains("\"date\" : \"2026-05-01T10:00:00Z\""))
    #expect(text.contains("\"file\" : \"Flows/fanout-100k.flow\""))  // slashes unescaped
    #expect(text.contains("\"status\" : \"failed\""))
    let keys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map {
      $0.dropFirst(3).prefix { $0 != "\"" }
    }
    #expect(
      keys == [
        "configuration", "failures", "file", "flow", "schemaVersion", "seed", "steps", "tool",
        "total",
      ])
  }

  @Test func pinsTheShapeOfAStep() {
    let text = JSONRenderer().render(ReportFixtures.fanOutReport())
    #expect(
      text.contains(
        """
              "explain" : [
                {
                  "commitVersions" : [
                    2
                  ],
                  "selector" : "\\\\Counter.value",
                  "views" : 1,
                  "wastedRenders" : 0
                }
              ],
              "index" : 2,
              "line" : 3,
        """))
    #expect(
      text.contains(
        """
                "latency" : {
                  "count" : 1,
                  "maxNanoseconds" : 18200,
                  "p50Nanoseconds" : 18200,
                  "p95Nanoseconds" : 18200,
                  "p99Nanoseconds" : 18200
                },
        """))
  }

  @Test func refusesAnotherSchemaVersion() {
    var text = JSONRenderer().render(ReportFixtures.fanOutReport())
    text = text.replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 2")
    #expect(throws: ReportDecodingError.unsupportedVersion(2)) {
      try JSONRenderer().decode(Data(text.utf8))
    }
    #expect(
      ReportDecodingError.unsupportedVersion(2).description
        == "report schema version 2 is not supported: this weft-sim reads version 1; "
        + "re-run the flow with this weft-sim to get one")
  }

  @Test func refusesTextThatIsNotAReport() {
    #expect(throws: ReportDecodingError.unsupportedVersion(nil)) {
      try JSONRenderer().decode(Data("{}".utf8))
    }
    #expect {
      try JSONRenderer().decode(Data("not json".utf8))
    } throws: { error in
      if case .malformed = error as? ReportDecodingError { return true }
      return false
    }
  }

  @Test func nonFiniteSweepFiguresStillEncode() throws {
    var report = ReportFixtures.sweepReport()
    report.sweep?.points[0].perDeliveryNanoseconds = .infinity
    let text = JSONRenderer().render(report)
    #expect(text.contains("\"perDeliveryNanoseconds\" : \"inf\""))
    #expect(try JSONRenderer().decode(Data(text.utf8)) == report)
  }
}
