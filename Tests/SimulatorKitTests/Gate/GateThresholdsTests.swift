import Foundation
import Testing

@testable import SimulatorGate
@testable import SimulatorKit

@Suite("GateThresholds")
struct GateThresholdsTests {
  @Test func theFileFormatIsPinned() throws {
    var thresholds = GateFixtures.thresholds(
      policy: GatePolicy(allowances: ["allocationsPerCommit": 1]))
    thresholds.toolchains["swift-6.3"]?.flows["fanout-100k"]?.ratios["delivery"]?.tolerance = 1.5
    #expect(
      thresholds.jsonText == """
        {
          "policy" : {
            "allowances" : {
              "allocationsPerCommit" : 1
            },
            "ratchetPercent" : 5,
            "ratioTolerance" : 1.25
          },
          "schemaVersion" : 1,
          "toolchains" : {
            "swift-6.3" : {
              "flows" : {
                "fanout-100k" : {
                  "counts" : {
                    "allocationsPerCommit" : 14,
                    "deliveries" : 1,
                    "mainActorJobs" : 1,
                    "rerenders" : 1,
                    "skips" : 0,
                    "sqlStatements" : 0
                  },
                  "ratios" : {
                    "delivery" : {
                      "baseline" : 1.4,
                      "tolerance" : 1.5
                    }
                  }
                }
              }
            }
          }
        }

        """)
    #expect(try GateThresholds.decode(Data(thresholds.jsonText.utf8)) == thresholds)
  }

  @Test func missingOptionalFieldsTakeTheirDefaults() throws {
    let text = """
      {"schemaVersion": 1, "toolchains": {"swift-6.3": {"flows": {"f": {"counts": {"skips": 0}}}}}}
      """
    let thresholds = try GateThresholds.decode(Data(text.utf8))
    #expect(thresholds.policy == GatePolicy())
    #expect(thresholds.policy.ratchetPercent == 5)
    #expect(thresholds.policy.ratioTolerance == 1.25)
    #expect(thresholds.toolchains["swift-6.3"]?.flows["f"] == FlowThresholds(counts: ["skips": 0]))
  }

  @Test func anotherSchemaVersionIsRefusedWithTheFix() {
    #expect(
      throws: GateThresholdsError.unsupportedVersion(path: "Gates/thresholds.json", version: 2)
    ) {
      try GateThresholds.decode(Data(#"{"schemaVersion": 2}"#.utf8), path: "Gates/thresholds.json")
    }
    #expect(
      GateThresholdsError.unsupportedVersion(path: "Gates/thresholds.json", version: 2).description
        == "the gate thresholds at Gates/thresholds.json have schema version 2; this simulator "
        + "reads version 1: regenerate them with `swift run -c release weft-sim gate --update`")
    // Another simulator's gate names its own command.
    #expect(
      GateThresholdsError.malformed(path: "t.json", detail: "x")
        .description(updateCommand: "swift run -c release notes-sim gate --update")
        .hasSuffix("regenerate it with `swift run -c release notes-sim gate --update`"))
  }

  @Test func malformedTextIsRefused() {
    #expect {
      try GateThresholds.decode(Data("[1, 2]".utf8))
    } throws: { error in
      if case .malformed = error as? GateThresholdsError { return true }
      return false
    }
  }

  @Test func aMissingFileIsEmptyAndWrittenFilesReadBack() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-gate-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("thresholds.json").path
    #expect(try GateThresholds.load(path: path) == .empty)
    try GateFixtures.thresholds().write(path: path)
    #expect(try GateThresholds.load(path: path) == GateFixtures.thresholds())
    #expect(try String(contentsOfFile: path, encoding: .utf8) == GateFixtures.thresholds().jsonText)
  }

  @Test func recordingDropsFlowsThatWereNotObservedAndRoundsBaselines() {
    var thresholds = GateFixtures.thresholds()
    thresholds.toolchains["swift-6.3"]?.flows["retired"] = FlowThresholds(counts: ["skips": 1])
    let observation = GateObservation(
      flow: "new-flow", counts: ["deliveries": 4],
      ratios: ["delivery": RatioMeasurement(ratio: 1.23449)])
    let recorded = thresholds.recording([observation], toolchain: "swift-6.3")
    #expect(
      recorded.toolchains["swift-6.3"]
        == ToolchainThresholds(flows: [
          "new-flow": FlowThresholds(
            counts: ["deliveries": 4], ratios: ["delivery": RatioThreshold(baseline: 1.234)])
        ]))
    #expect(recorded.policy == thresholds.policy)
  }
}

@Suite("GateObservation")
struct GateObservationTests {
  @Test func readsTheGatedCountsFromMetrics() {
    let metrics = ReportFixtures.metrics(
      commits: 4, delivered: 5, rerendered: 3, skipped: 99_997, wasted: 1, jobs: 2, sql: 6,
      allocations: 50)
    let observation = GateObservation(flow: "fanout-100k", metrics: metrics)
    #expect(
      observation.counts == [
        "commits": 4, "deliveries": 5, "rerenders": 3, "skips": 99_997, "wastedRenders": 1,
        "mainActorJobs": 2, "sqlStatements": 6, "allocationsPerCommit": 12.5,
      ])
  }

  @Test func leavesAllocationsOutWhenNotCounted() {
    let observation = GateObservation(
      flow: "f", metrics: ReportFixtures.metrics(allocations: nil))
    #expect(observation.counts["allocationsPerCommit"] == nil)
    #expect(observation.counts.count == GateMetric.allCases.count - 1)
  }

  @Test func keysAReportByItsFileName() {
    let observation = GateObservation(report: ReportFixtures.fanOutReport())
    #expect(observation.flow == "fanout-100k")
    #expect(GateObservation.flowKey(file: "offline-burst.flow") == "offline-burst")
    #expect(GateObservation.flowKey(file: "a/b/c") == "c")
  }

  @Test func ratioKeysOrderByFlowThenName() {
    let keys = [
      RatioKey(flow: "b", name: "a"), RatioKey(flow: "a", name: "z"),
      RatioKey(flow: "a", name: "b"),
    ]
    #expect(keys.sorted().map(\.description) == ["a/b", "a/z", "b/a"])
  }
}
