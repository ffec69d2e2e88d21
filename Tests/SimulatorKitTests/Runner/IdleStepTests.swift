import HealthSimulator
import Testing

@testable import SimulatorKit

/// A step that leaves no work behind must not pay for settling: no hop off the MainActor,
/// no watchdog task.
@Suite("Idle steps")
@MainActor
struct IdleStepTests {
  /// Set by a MainActor job that can run only if the MainActor is given up.
  final class Flag {
    var raised = false
  }

  @Test func settlingAnIdleAppNeverGivesUpTheMainActor() async throws {
    let app = try await HealthSimulation.make(seed: 1)
    await app.settle()
    let flag = Flag()
    // Queued behind the test on the MainActor: it runs only when the test suspends. Before,
    // `settle()` hopped to the global executor and back even with nothing in flight, and
    // this job ran in between.
    Task { @MainActor in flag.raised = true }
    await app.settle()
    #expect(!flag.raised)
    #expect(app.takeFailure() == nil)
    await app.runtime.setHealthForm(notes: "idle")  // hops to the form's actor and back
    #expect(flag.raised)
    await app.shutDown()
  }
}
