import SimulatorFlow

/// What a failed `expect` adds when the app still has timers pending: in a flow, time passes
/// only with `wait` and `clock advance` (a step ends once no job is runnable and leaves its
/// timers pending), so the value may be one that a pending timer is about to change — a
/// database observation's pacing, a debounce, network latency. The hint says so and shows
/// the `wait` that lets virtual time pass until the value holds.
///
/// - Complexity: O(1).
/// - Note: Isolation: a pure function; any isolation.
enum PendingTimersHint {
  /// `""` with no pending timer (or when the app cannot tell); otherwise the hint, starting
  /// with "; ".
  static func text(pending: Int?, condition: StepKind.Condition) -> String {
    guard let pending, pending > 0 else { return "" }
    let wait =
      "wait \(condition.path) \(condition.op.rawValue) \(SourceWindows.clipped("\(condition.value)"))"
    return "; \(pending) timer(s) still pending: time passes only with 'wait' or 'clock "
      + "advance', so if the value comes after a delay, write '\(wait) timeout=DURATION'"
  }
}
