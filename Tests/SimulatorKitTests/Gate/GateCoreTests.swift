import Testing

@testable import SimulatorGate
@testable import SimulatorKit

@Suite("GateCore: exact counts")
struct GateCoreCountTests {
  @Test func equalCountsPass() {
    let (outcome, remeasured) = GateFixtures.decide([GateFixtures.observation()])
    #expect(outcome.passed)
    #expect(outcome.exitCode == 0)
    #expect(outcome.findings.isEmpty)
    #expect(remeasured.isEmpty)
    #expect(
      outcome.text
        == "weft-sim gate: passed against Gates/thresholds.json (swift-6.3): 1 flow, "
        + "6 counts exact, 1 ratio within tolerance\n")
  }

  @Test func anyIncreaseFails() {
    let outcome = GateFixtures.decide([GateFixtures.observation(["deliveries": 2])]).outcome
    #expect(!outcome.passed)
    #expect(outcome.exitCode == 1)
    #expect(
      outcome.failures == [
        .countIncreased(flow: "fanout-100k", metric: "deliveries", expected: 1, actual: 2)
      ])
  }

  @Test func aFractionalIncreaseFailsToo() {
    let outcome = GateFixtures.decide([
      GateFixtures.observation(["allocationsPerCommit": 14.01])
    ]).outcome
    #expect(
      outcome.failures.map(\.line) == [
        "fanout-100k  allocationsPerCommit: expected 14, actual 14.01 (+0.01, +0.1%): "
          + "an increase is a regression"
      ])
  }

  @Test func aSmallDecreaseIsANoteNotAFailure() {
    let outcome = GateFixtures.decide([
      GateFixtures.observation(["allocationsPerCommit": 13.5])
    ]).outcome
    #expect(outcome.passed)
    #expect(
      outcome.notes == [
        .countDroppedWithinRatchet(
          flow: "fanout-100k", metric: "allocationsPerCommit", expected: 14, actual: 13.5,
          ratchetPercent: 5)
      ])
  }

  @Test func aLargeDecreaseFailsUntilRecorded() {
    let outcome = GateFixtures.decide([
      GateFixtures.observation(["allocationsPerCommit": 10])
    ]).outcome
    #expect(
      outcome.failures == [
        .countDroppedBeyondRatchet(
          flow: "fanout-100k", metric: "allocationsPerCommit", expected: 14, actual: 10,
          ratchetPercent: 5)
      ])
    // Once regenerated, the same run passes.
    let recorded = GateFixtures.decide(
      [GateFixtures.observation(["allocationsPerCommit": 10])], thresholds: outcome.regenerated)
    #expect(recorded.outcome.passed)
  }

  @Test func dropFromOneToZeroIsBeyondAnyRatchetBelowOneHundredPercent() {
    let outcome = GateFixtures.decide([GateFixtures.observation(["mainActorJobs": 0])]).outcome
    #expect(
      outcome.failures.map(\.line) == [
        "fanout-100k  mainActorJobs: expected 1, actual 0 (-1, -100%): dropped more than the 5% "
          + "ratchet; record the improvement"
      ])
  }

  @Test func aZeroRatchetMakesAnyDecreaseFail() {
    let thresholds = GateFixtures.thresholds(policy: GatePolicy(ratchetPercent: 0))
    let outcome = GateFixtures.decide(
      [GateFixtures.observation(["allocationsPerCommit": 13.99])], thresholds: thresholds
    ).outcome
    #expect(!outcome.passed)
    #expect(
      outcome.failures.map(\.line) == [
        "fanout-100k  allocationsPerCommit: expected 14, actual 13.99 (-0.01, -0.1%): "
          + "dropped more than the 0% ratchet; record the improvement"
      ])
  }

  @Test func anAllowancePermitsABoundedIncrease() {
    let thresholds = GateFixtures.thresholds(
      policy: GatePolicy(allowances: ["allocationsPerCommit": 1]))
    let within = GateFixtures.decide(
      [GateFixtures.observation(["allocationsPerCommit": 15])], thresholds: thresholds
    ).outcome
    #expect(within.passed)
    #expect(
      within.notes.map(\.line) == [
        "fanout-100k  allocationsPerCommit: expected 14, actual 15 (+1, +7.1%): within the "
          + "allowance of 1"
      ])
    let beyond = GateFixtures.decide(
      [GateFixtures.observation(["allocationsPerCommit": 15.5])], thresholds: thresholds
    ).outcome
    #expect(!beyond.passed)
  }

  @Test func aRelativeAllowanceGrowsWithTheThresholdAndTheLargerAllowanceWins() {
    let policy = GatePolicy(
      allowances: ["allocationsPerCommit": 1], allowancePercents: ["allocationsPerCommit": 0.5])
    #expect(policy.allowance(for: "allocationsPerCommit", expected: 14) == 1)
    #expect(policy.allowance(for: "allocationsPerCommit", expected: 12_900) == 64.5)
    #expect(policy.allowance(for: "deliveries", expected: 12_900) == 0)
    let thresholds = GateFixtures.thresholds(policy: policy)
    let small = GateFixtures.decide(
      [GateFixtures.observation(["allocationsPerCommit": 15.5])], thresholds: thresholds
    ).outcome
    #expect(!small.passed)  // 0.5% of 14 is below the absolute 1: the absolute one applies
    let percentOnly = GateFixtures.thresholds(
      policy: GatePolicy(allowancePercents: ["allocationsPerCommit": 10]))
    let within = GateFixtures.decide(
      [GateFixtures.observation(["allocationsPerCommit": 15.4])], thresholds: percentOnly
    ).outcome
    #expect(within.passed)  // 10% of 14 is 1.4
  }

  @Test func aCountFromZeroSaysNew() {
    let outcome = GateFixtures.decide([GateFixtures.observation(["skips": 3])]).outcome
    #expect(
      outcome.failures.map(\.line) == [
        "fanout-100k  skips: expected 0, actual 3 (+3, new): an increase is a regression"
      ])
  }

  /// Every pairing of threshold and measurement on a small grid, against the rule in words.
  @Test func classifiesEveryPairingOnAGrid() {
    let values: [Double] = [0, 1, 18, 19, 20, 21, 100]
    for ratchet in [0.0, 5, 10] {
      for expected in values {
        for actual in values {
          let thresholds = GateThresholds(
            policy: GatePolicy(ratchetPercent: ratchet),
            toolchains: [
              "swift-6.3": ToolchainThresholds(flows: [
                "f": FlowThresholds(counts: ["deliveries": expected])
              ])
            ])
          let outcome = GateFixtures.decide(
            [GateObservation(flow: "f", counts: ["deliveries": actual])], thresholds: thresholds
          ).outcome
          let dropPercent = expected == 0 ? 0 : (expected - actual) / expected * 100
          let shouldFail = actual > expected || dropPercent > ratchet
          #expect(outcome.passed == !shouldFail, "ratchet \(ratchet), \(expected) → \(actual)")
          #expect(outcome.countsChecked == 1)
        }
      }
    }
  }
}

@Suite("GateCore: ratios")
struct GateCoreRatioTests {
  @Test func aRatioWithinItsLimitIsNotRemeasured() {
    let (outcome, remeasured) = GateFixtures.decide([GateFixtures.observation(ratio: 1.75)])
    #expect(remeasured.isEmpty)
    #expect(outcome.passed)
    #expect(outcome.ratiosChecked == 1)
  }

  @Test func aRatioPastItsLimitAsksForARerun() {
    var core = GateCore(thresholds: GateFixtures.thresholds(), toolchain: "swift-6.3")
    #expect(
      core.evaluate([GateFixtures.observation(ratio: 1.76)]) == .remeasure([GateFixtures.key]))
  }

  @Test func failsWhenTheRerunAgrees() {
    let rerun = RatioMeasurement(median: 1.91, minimum: 1.9, maximum: 1.95, rounds: 15)
    let (outcome, remeasured) = GateFixtures.decide(
      [GateFixtures.observation(ratio: 1.93)], rerun: .measured(rerun))
    #expect(remeasured == [GateFixtures.key])
    #expect(!outcome.passed)
    #expect(
      outcome.failures.map(\.line) == [
        "fanout-100k  ratio delivery: expected at most 1.75× (baseline 1.40× × tolerance 1.25), "
          + "actual 1.93× (median of 15 rounds, spread 3.1%); re-run 1.91× agrees"
      ])
    // The regenerated baseline is the re-run's median.
    #expect(
      outcome.regenerated.toolchains["swift-6.3"]?.flows["fanout-100k"]?.ratios["delivery"]
        == RatioThreshold(baseline: 1.91))
  }

  @Test func passesAsNoiseWhenTheRerunDisagrees() {
    let rerun = RatioMeasurement(median: 1.5, minimum: 1.45, maximum: 1.55, rounds: 15)
    let (outcome, remeasured) = GateFixtures.decide(
      [GateFixtures.observation(ratio: 1.93)], rerun: .measured(rerun))
    #expect(remeasured == [GateFixtures.key])
    #expect(outcome.passed)
    #expect(
      outcome.notes.map(\.line) == [
        "fanout-100k  ratio delivery: first run 1.93× was past 1.75×, re-run 1.50× is within: "
          + "treated as noise"
      ])
  }

  @Test func aFailedRerunFails() {
    let failed = GateFixtures.decide(
      [GateFixtures.observation(ratio: 1.93)], rerun: .failed("workload crashed")
    ).outcome
    #expect(
      failed.failures.map(\.line) == [
        "fanout-100k  ratio delivery: expected at most 1.75× (baseline 1.40× × tolerance 1.25), "
          + "actual 1.93× (median of 15 rounds, spread 3.1%); the re-run failed: workload crashed"
      ])
    let missing = GateFixtures.decide([GateFixtures.observation(ratio: 1.93)], rerun: nil).outcome
    #expect(missing.failures.map(\.line).first?.hasSuffix("the re-run failed: no result") == true)
  }

  @Test func aRatioMayCarryItsOwnTolerance() {
    var thresholds = GateFixtures.thresholds()
    thresholds.toolchains["swift-6.3"]?.flows["fanout-100k"]?.ratios["delivery"] =
      RatioThreshold(baseline: 1.4, tolerance: 1.5)
    let (outcome, remeasured) = GateFixtures.decide(
      [GateFixtures.observation(ratio: 2.0)], thresholds: thresholds)
    #expect(remeasured.isEmpty)
    #expect(outcome.passed)
    // Regenerating keeps the override.
    #expect(
      outcome.regenerated.toolchains["swift-6.3"]?.flows["fanout-100k"]?.ratios["delivery"]
        == RatioThreshold(baseline: 2.0, tolerance: 1.5))
  }

  @Test func unrecordedAndUnmeasuredRatiosFail() {
    var observation = GateFixtures.observation()
    observation.ratios = ["coalesce": RatioMeasurement(ratio: 1.1)]
    let outcome = GateFixtures.decide([observation]).outcome
    #expect(
      outcome.failures.map(\.line) == [
        "fanout-100k  ratio coalesce: no baseline recorded, actual 1.10× (median of 1 round, "
          + "spread 0%)",
        "fanout-100k  ratio delivery: baseline 1.40×, not measured",
      ])
  }
}

@Suite("GateCore: missing entries and text")
struct GateCoreTextTests {
  @Test func aMissingToolchainFailsAndRecordsIt() {
    let outcome = GateFixtures.decide([GateFixtures.observation()], toolchain: "swift-6.4")
      .outcome
    #expect(
      outcome.failures == [.toolchainNotRecorded(toolchain: "swift-6.4", recorded: ["swift-6.3"])])
    #expect(outcome.regenerated.toolchains.keys.sorted() == ["swift-6.3", "swift-6.4"])
    #expect(
      outcome.regenerated.toolchains["swift-6.3"]
        == GateFixtures.thresholds().toolchains["swift-6.3"])
    let empty = GateFixtures.decide([GateFixtures.observation()], thresholds: .empty).outcome
    #expect(empty.failures.map(\.line) == ["no thresholds for swift-6.3 (recorded: none)"])
  }

  @Test func missingFlowsAndCountsFail() {
    var observation = GateFixtures.observation(["allocationsPerCommit": nil, "wastedRenders": 0])
    observation.flow = "fanout-100k"
    let outcome = GateFixtures.decide([
      GateFixtures.observation(flow: "offline-burst"), observation,
    ]).outcome
    #expect(
      outcome.failures.map(\.line) == [
        "fanout-100k  allocationsPerCommit: expected 14, not measured (allocations are counted "
          + "only by a release build on Linux (glibc), without sanitizers: build with -c release)",
        "fanout-100k  wastedRenders: no threshold recorded, actual 0",
        "offline-burst: no thresholds recorded for this flow",
      ])
  }

  @Test func aRecordedFlowThatDidNotRunFails() {
    let outcome = GateFixtures.decide([]).outcome
    #expect(
      outcome.failures.map(\.line) == [
        "fanout-100k: thresholds recorded, but this run did not measure the flow (run it, or "
          + "regenerate to drop it)"
      ])
  }

  @Test func theFailureTextNamesEachMetricTheCommandAndTheRegeneratedJSON() {
    let outcome = GateFixtures.decide([
      GateFixtures.observation(["deliveries": 2, "allocationsPerCommit": 10])
    ]).outcome
    #expect(
      outcome.text == """
        weft-sim gate: FAILED against Gates/thresholds.json (swift-6.3): 2 problems
          fanout-100k  allocationsPerCommit: expected 14, actual 10 (-4, -28.6%): dropped more than the 5% ratchet; record the improvement
          fanout-100k  deliveries: expected 1, actual 2 (+1, +100%): an increase is a regression

        If the change is intended, regenerate the thresholds and commit them:
          swift run -c release weft-sim gate --update

        Regenerated Gates/thresholds.json:
        {
          "policy" : {
            "ratchetPercent" : 5,
            "ratioTolerance" : 1.25
          },
          "schemaVersion" : 1,
          "toolchains" : {
            "swift-6.3" : {
              "flows" : {
                "fanout-100k" : {
                  "counts" : {
                    "allocationsPerCommit" : 10,
                    "deliveries" : 2,
                    "mainActorJobs" : 1,
                    "rerenders" : 1,
                    "skips" : 0,
                    "sqlStatements" : 0
                  },
                  "ratios" : {
                    "delivery" : {
                      "baseline" : 1.5
                    }
                  }
                }
              }
            }
          }
        }

        """)
  }

  @Test func notesFollowAPassingVerdict() {
    let rerun = RatioMeasurement(median: 1.5, minimum: 1.45, maximum: 1.55, rounds: 15)
    let outcome = GateFixtures.decide(
      [GateFixtures.observation(["allocationsPerCommit": 13.5], ratio: 1.93)],
      rerun: .measured(rerun)
    ).outcome
    #expect(
      outcome.text == """
        weft-sim gate: passed against Gates/thresholds.json (swift-6.3): 1 flow, 6 counts exact, 1 ratio within tolerance
        notes
          fanout-100k  allocationsPerCommit: expected 14, actual 13.5 (-0.5, -3.6%): within the 5% ratchet
          fanout-100k  ratio delivery: first run 1.93× was past 1.75×, re-run 1.50× is within: treated as noise

        """)
  }

  @Test func messagesUseTheConfiguredPathAndCommand() {
    var core = GateCore(
      thresholds: .empty, toolchain: "swift-6.3",
      options: GateOptions(thresholdsPath: "Bench/gate.json", updateCommand: "make gate-update"))
    guard case .finish(let outcome) = core.evaluate([GateFixtures.observation()]) else {
      Issue.record("expected a finished gate")
      return
    }
    #expect(outcome.text.contains("FAILED against Bench/gate.json (swift-6.3)"))
    #expect(outcome.text.contains("\n  make gate-update\n"))
    #expect(outcome.text.contains("Regenerated Bench/gate.json:\n{"))
  }
}
