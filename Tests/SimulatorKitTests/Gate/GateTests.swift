import Testing

@testable import SimulatorGate
@testable import SimulatorKit
@testable import SimulatorReports

@Suite("Gate (owner)")
struct GateTests {
  private struct ProbeFailed: Error, CustomStringConvertible {
    var description: String { "the probe could not build the workload" }
  }

  private let gate = Gate(
    thresholds: GateFixtures.thresholds(), toolchain: SwiftToolchain(version: "6.3"))

  @Test func remeasuresOnlyRatiosPastTheirLimit() {
    var asked: [RatioKey] = []
    let outcome = gate.check([GateFixtures.observation(ratio: 1.2)]) { key in
      asked.append(key)
      return RatioMeasurement(ratio: 1.2)
    }
    #expect(asked.isEmpty)
    #expect(outcome.passed)
  }

  @Test func failsWhenTheInjectedRerunAgrees() {
    var asked: [RatioKey] = []
    let outcome = gate.check([GateFixtures.observation(ratio: 2.0)]) { key in
      asked.append(key)
      return RatioMeasurement(ratio: 1.9)
    }
    #expect(asked == [GateFixtures.key])
    #expect(!outcome.passed)
    #expect(outcome.text.contains("re-run 1.90× agrees"))
  }

  @Test func passesWhenTheInjectedRerunDisagrees() {
    let outcome = gate.check([GateFixtures.observation(ratio: 2.0)]) { _ in
      RatioMeasurement(ratio: 1.3)
    }
    #expect(outcome.passed)
    #expect(outcome.notes.count == 1)
  }

  @Test func aThrowingRerunFailsWithItsReason() {
    let outcome = gate.check([GateFixtures.observation(ratio: 2.0)]) { _ in throw ProbeFailed() }
    #expect(
      outcome.failures.map(\.line).first?.hasSuffix(
        "the re-run failed: the probe could not build the workload") == true)
  }

  @Test func recordReplacesOnlyThisToolchain() {
    var thresholds = GateFixtures.thresholds()
    thresholds.toolchains["swift-6.2"] = ToolchainThresholds(flows: ["old": FlowThresholds()])
    let gate = Gate(thresholds: thresholds, toolchain: SwiftToolchain(version: "6.3"))
    let recorded = gate.record([GateFixtures.observation(["deliveries": 3], ratio: 1.23456)])
    #expect(recorded.toolchains["swift-6.2"] == thresholds.toolchains["swift-6.2"])
    let flow = recorded.toolchains["swift-6.3"]?.flows["fanout-100k"]
    #expect(flow?.counts["deliveries"] == 3)
    #expect(flow?.ratios["delivery"] == RatioThreshold(baseline: 1.235))
  }

  @Test func theToolchainKeyNamesTheCompiler() {
    #expect(SwiftToolchain(version: "6.3").thresholdsKey == "swift-6.3")
    #expect(SwiftToolchain.current.thresholdsKey.hasPrefix("swift-6."))
  }
}
