import Foundation
import TestProcesses
import Testing

/// In a flow, time passes only with `wait` and `clock advance`: a step ends once no job is
/// runnable and leaves its timers pending. An `expect` written right after a step whose
/// effect comes after a delay fails, and says so: how many timers are pending and the `wait`
/// that lets virtual time pass (under weft-sim, on the deterministic runtime).
@Suite("A failed expect names the timers still pending")
struct PendingTimersHintTests {
  @Test func anExpectBeforeTheNetworkAnsweredShowsTheWaitToWrite() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-pending-timers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }  // try?: a leftover temp folder
    let flow = folder.appendingPathComponent("too-soon.flow")
    try """
    flow "too soon"
    login email=ada@example.com password=correct-horse
    expect auth.state == authenticated
    """.write(to: flow, atomically: true, encoding: .utf8)
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("weft-sim")
    let result = try await ChildProcess.run(binary, [flow.path, "--no-progress"], in: folder)
    #expect(result.status == 1, "\(result.standard)\(result.error)")
    #expect(
      result.standard.contains(
        "expectation failed: auth.state is authenticating, expected == authenticated; "),
      "\(result.standard)")
    #expect(
      result.standard.contains(
        "timer(s) still pending: time passes only with 'wait' or 'clock advance', so if the "
          + "value comes after a delay, write 'wait auth.state == authenticated "
          + "timeout=DURATION'"),
      "\(result.standard)")
  }
}
