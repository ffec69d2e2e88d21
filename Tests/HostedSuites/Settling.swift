import Testing
import WeftRuntime

/// Runs every task and fires every timer of the process until it is idle: these suites run
/// on the deterministic runtime (`weft-hosted-tests`), where that is exact.
func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
  guard let runtime = DeterministicRuntime.current else {
    Issue.record(
      "HostedSuites run on the deterministic runtime: `swift run weft-hosted-tests`",
      sourceLocation: sourceLocation)
    return
  }
  await runtime.runUntilIdle()
}
