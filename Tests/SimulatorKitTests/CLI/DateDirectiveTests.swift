import Foundation
import TestProcesses
import Testing

/// A flow's `date` line sets the wall clock the app reads at launch, and the clocks move with
/// virtual time exactly (issue 39). `noise-sim` (built next to this test bundle) links the
/// runtime's world; its `world.stamp` reads `Date()`, `ContinuousClock.now` and `UUID()` as an
/// app stamping a row does.
@Suite("weft-sim: the flow's date and the world's clocks")
struct DateDirectiveTests {
  func binary(_ name: String) -> URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent(name)
  }

  var flow: String {
    DeterminismCheckTests.root.appendingPathComponent("Tests/NoiseSimulator/Flows/date.flow").path
  }

  /// `Date()` reads 2026-03-01T09:00:00Z at the first stamp and exactly 1 s more after
  /// `clock advance 1500ms`; `ContinuousClock` moved exactly 1.5 s; `UUID()` gave the id the
  /// seed decides: the flow's expectations say so.
  @Test func dateSetsTheWallClockAndClocksMoveWithVirtualTime() async throws {
    let result = try await ChildProcess.run(binary("noise-sim"), [flow, "--no-progress"])
    #expect(result.status == 0, "\(result.standard)\(result.error)")
    #expect(result.standard.contains("result: passed"), "\(result.standard)")
  }

  /// `--seed` does not skip the flow's `date` line (the clocks' expectations hold), and it
  /// draws other ids: only the pinned UUID fails.
  @Test func anotherSeedKeepsTheDateAndDrawsOtherIDs() async throws {
    let result = try await ChildProcess.run(
      binary("noise-sim"), [flow, "--no-progress", "--seed", "9"])
    #expect(result.status == 1, "\(result.standard)\(result.error)")
    let failures = result.standard.split(separator: "\n").filter {
      $0.contains("error: expectation failed")
    }
    #expect(failures.count == 1, "\(result.standard)")
    #expect(failures.first?.contains("world.uuid is ") == true, "\(result.standard)")
  }

  /// Two processes draw the same `UUID()` and read the same clocks: the check compares every
  /// job and count.
  @Test func twoRunsAreAlike() async throws {
    let result = try await ChildProcess.run(binary("noise-sim"), [flow, "--check-determinism"])
    #expect(result.status == 0, "\(result.standard)\(result.error)")
    #expect(result.standard.contains("deterministic — "), "\(result.standard)")
  }
}
