import WeftCore

/// The text of every `TestStore` failure: what happened, then how to fix it. Tests pin
/// each one.
enum Messages {
  static func stateMismatch(_ step: String, expected: Any, actual: Any, hasUpdate: Bool) -> String {
    let fix =
      hasUpdate
      ? "To fix: make the closure produce the actual state, or fix the reducer."
      : "To fix: pass a closure that applies the expected change, "
        + "e.g. `\(step) { $0.field = value }`, or fix the reducer."
    return """
      State after \(step) does not match: (− expected, + actual)
      \(indent(LineDiff.render(expected: expected, actual: actual)))
      \(fix)
      """
  }

  static func noChange(_ step: String) -> String {
    """
    \(step) changed nothing, and neither did its closure.
    To fix: drop the closure when no change is expected.
    """
  }

  static func sentWhilePending(_ step: String, _ events: [Any]) -> String {
    """
    \(step) was called while \(count(events.count, "event")) fed back by effects \
    \(events.count == 1 ? "was" : "were") not received:
    \(bullets(events.map(Rendering.inline)))
    To fix: receive \(events.count == 1 ? "it" : "them") first with \
    `await store.receive(...)`, or use `exhaustivity: .off`.
    """
  }

  static func notReduced(_ step: String) -> String {
    """
    \(step) was not reduced: the system was already torn down.
    To fix: send events before `finish()` and before cancelling the system.
    """
  }

  static func unexpectedEvent(_ step: String, expected: Any?, received: Any) -> String {
    guard let expected else {
      return """
        \(step) got \(Rendering.inline(received)), which does not match.
        To fix: match the event effects actually sent, or fix the feedback that sent it.
        """
    }
    return """
      \(step) got a different event: (− expected, + received)
      \(indent(LineDiff.render(expected: expected, actual: received)))
      To fix: expect the event effects actually sent, or fix the feedback that sent it.
      """
  }

  static func nothingCanArrive(_ step: String) -> String {
    """
    \(step) found no event: no effect is running that could send one.
    To fix: check that a feedback launches the effect, and that its clock was advanced.
    """
  }

  static func nothingArrived(
    _ step: String, timeout: Duration, running: [String], clock: TestClock?
  ) -> String {
    let fix =
      if let clock, clock.hasSleepersAfterLastAdvance {
        """
        The last advance came before the effect slept, so it woke nothing: \(clock.timeline).
        To fix: advance again, past the deadline above.
        """
      } else if let clock {
        """
        \(clock.timeline).
        To fix: advance the TestClock past the effect's deadline, or raise `timeout`.
        """
      } else {
        """
        To fix: advance the TestClock so the effect can send its event, or raise `timeout`; \
        give the store the clock (`TestStore(…, clock: clock)`) so that `advance` first lets \
        the effects `send` started reach their sleep.
        """
      }
    return """
      \(step) found no event within \(timeout), while \(count(running.count, "effect")) \
      kept running:
      \(bullets(running))
      \(fix)
      """
  }

  static func unreceived(_ events: [Any]) -> String {
    """
    \(count(events.count, "event")) fed back by effects \
    \(events.count == 1 ? "was" : "were") never received:
    \(bullets(events.map(Rendering.inline)))
    To fix: add `await store.receive(...)` for each, or use `exhaustivity: .off`.
    """
  }

  static func stillRunning(_ effects: [String]) -> String {
    """
    \(count(effects.count, "effect")) \(effects.count == 1 ? "is" : "are") still running \
    at the end of the test:
    \(bullets(effects))
    To fix: advance the clock or send the event that ends \(effects.count == 1 ? "it" : "them"), \
    or call `store.skipInFlightEffects()` if the test does not care how they end.
    """
  }

  static func effectsMismatch(
    _ step: String, expected: EffectChanges, actual: EffectChanges
  )
    -> String
  {
    """
    Effects of \(step) differ: (− expected, + actual)
    − \(expected)
    + \(actual)
    To fix: expect the effects the feedback rules launched and cancelled, or fix the rules.
    """
  }

  private static func count(_ n: Int, _ noun: String) -> String {
    n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
  }

  private static func bullets(_ lines: [String]) -> String {
    lines.map { "  • \($0)" }.joined(separator: "\n")
  }

  private static func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
      .joined(separator: "\n")
  }
}
