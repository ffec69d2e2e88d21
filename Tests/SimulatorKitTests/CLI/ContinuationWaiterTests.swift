import Foundation
import TestProcesses
import Testing

/// A `wait` that cannot go on names the tasks suspended on a continuation that nothing
/// resumed (issue 27 item 2), by task name where the task has one: the race app's sign-in
/// bridges a callback API that never calls back.
@Suite("A wait names the tasks left on a continuation")
struct ContinuationWaiterTests {
  @Test func aLostCallbackIsNamedByItsTask() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-waiters-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let flow = folder.appendingPathComponent("sign-in.flow")
    try """
    flow "a lost callback"
    session.signIn
    wait session.signedIn == true timeout=5s
    """.write(to: flow, atomically: true, encoding: .utf8)

    let result = try await ChildProcess.run(ExploreTests.binary, [flow.path, "--no-progress"])
    #expect(result.status == 1)
    #expect(result.standard.contains("timed out waiting for session.signedIn == true"))
    #expect(result.standard.contains("nothing was left to run"))
    #expect(
      result.standard.contains(
        "tasks last seen suspending on a continuation that nothing resumed: 'sign-in' (task "),
      "\(result.standard)")
  }

  @Test func aWaitThatHoldsNamesNobody() async throws {
    // The race app's other flows leave no task on a continuation.
    let flow = ExploreTests.root.appendingPathComponent(
      "Tests/RaceSimulator/Flows/lost-update.flow")
    let result = try await ChildProcess.run(ExploreTests.binary, [flow.path, "--no-progress"])
    #expect(result.status == 0)
    #expect(!result.standard.contains("suspending on a continuation"))
  }
}
