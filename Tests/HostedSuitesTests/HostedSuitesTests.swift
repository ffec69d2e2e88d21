import Foundation
import TestProcesses
import Testing
import WeftTesting

/// Runs `weft-hosted-tests` — the suites of Tests/HostedSuites (the auth feature, the health
/// app in its simulated configuration) on the deterministic runtime, where an action settles
/// by running every task and timer and the app carries no bookkeeping for it — and expects
/// every one of them to pass. On failure, the failing tests' lines are the message; run
/// `swift run weft-hosted-tests --filter NAME` to see one alone.
@Suite("Suites hosted on the deterministic runtime")
struct HostedSuitesTests {
  @Test func everyHostedSuitePasses() async throws {
    let host = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("weft-hosted-tests")
    let result = try await ChildProcess.run(host, [])
    let output = result.standard + result.error
    if result.status == DeterministicTestHost.unavailableStatus {
      // Apple platforms before 26.4: no executor SPI, so no runtime to host the suites.
      withKnownIssue("the deterministic runtime is unavailable here") {
        Issue.record(Comment(rawValue: output))
      }
      return
    }
    let failures = output.split(separator: "\n").filter {
      $0.contains("✘") || $0.contains("recorded an issue")
    }
    #expect(
      result.status == 0,
      Comment(
        rawValue: "weft-hosted-tests exited \(result.status):\n"
          + (failures.isEmpty ? output : failures.joined(separator: "\n"))))
    #expect(output.contains("passed"), Comment(rawValue: output))
  }
}
