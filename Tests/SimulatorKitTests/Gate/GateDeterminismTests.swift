import Testing

@testable import SimulatorGate
@testable import SimulatorReports

/// A count that differs between runs of one flow is reported as not deterministic, never
/// judged against its threshold (issue 39): the gate tolerates nothing on counts.
@Suite("Gate: counts that do not repeat")
struct GateDeterminismTests {
  private let gate = Gate(
    thresholds: GateFixtures.thresholds(), toolchain: SwiftToolchain(version: "6.3"))

  @Test func runsThatAgreeCombineToTheirCounts() throws {
    let run = GateFixtures.observation(["deliveries": 7])
    let combined = try #require(GateObservation.combining([run, run, run]))
    #expect(combined.counts == run.counts)
    #expect(combined.variations.isEmpty)
  }

  @Test func aCountThatMovesIsListedWithEveryRunsValue() throws {
    let runs = [46.8, 46.867, 46.8].map { GateFixtures.observation(["allocationsPerCommit": $0]) }
    let combined = try #require(GateObservation.combining(runs))
    #expect(combined.variations == ["allocationsPerCommit": [46.8, 46.867, 46.8]])
    // A count measured in one run only also varies.
    let partial = [GateFixtures.observation(), GateFixtures.observation(["sqlStatements": nil])]
    #expect(GateObservation.combining(partial)?.variations.keys.sorted() == ["sqlStatements"])
    #expect(GateObservation.combining([]) == nil)
  }

  /// Even a value above the threshold is not called a regression when the runs disagree: the
  /// finding says not deterministic, fails the gate, and points at --check-determinism.
  @Test func theGateSaysNotDeterministicInsteadOfRegression() throws {
    let expected = try #require(GateFixtures.counts["deliveries"])
    let runs = [expected + 5, expected].map { GateFixtures.observation(["deliveries": $0]) }
    let outcome = gate.check([try #require(GateObservation.combining(runs))]) { _ in
      RatioMeasurement(ratio: 1.5)
    }
    #expect(!outcome.passed)
    #expect(
      outcome.failures == [
        .countNotDeterministic(
          flow: "fanout-100k", metric: "deliveries", values: [expected + 5, expected])
      ])
    let line = try #require(outcome.failures.first?.line)
    #expect(line.contains("deliveries: NOT DETERMINISTIC"), "\(line)")
    #expect(line.contains("--check-determinism"), "\(line)")
    #expect(!line.contains("regression is"), "\(line)")
  }
}
