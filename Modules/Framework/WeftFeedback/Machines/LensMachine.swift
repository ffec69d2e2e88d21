/// The start, cancel and restart decisions of the state-driven feedbacks (`lensing`,
/// `lensingSkippingRepeated`, `whenBecomesTrue`), as a pure state machine.
///
/// Feed it the query of every reduced state; it answers with the effect to cancel and the
/// effect to start, and remembers which launch is current. It runs no code and owns no task:
/// the system carries its steps out.
///
/// | previous query | new query | `restartOnEveryState` | `restartWhenChanged` | `keepWhileNonNil` |
/// |---|---|---|---|---|
/// | nil | nil | nothing | nothing | nothing |
/// | nil | q | start q | start q | start q |
/// | p | nil | cancel p's effect if running | same | same |
/// | p | q | cancel p's, start q | same if p != q, nothing if p == q | nothing |
///
/// An effect that completes on its own (`ended`) is not restarted: only a new query does.
///
/// - Complexity: O(1) per step, plus one query comparison for `restartWhenChanged`.
/// - Note: Isolation: a value; the system keeps it on its host.
/// - Note: Allocations: none.
struct LensMachine<Query> {
  /// When a non-nil query that follows a non-nil query restarts the effect.
  enum Policy {
    /// Every reduced state counts as a new query (`lensing`).
    case restartOnEveryState
    /// Only a query different from the previous one restarts (`lensingSkippingRepeated`).
    case restartWhenChanged((Query, Query) -> Bool)
    /// A non-nil query never restarts; only nil ends it (`whenBecomesTrue`).
    case keepWhileNonNil
  }

  /// What to carry out after one observation: cancel first, then start.
  struct Step {
    /// The serial of the running effect to cancel.
    var cancel: UInt64?
    /// The serial and query of the effect to start.
    var start: (serial: UInt64, query: Query)?

    static var nothing: Step { Step(cancel: nil, start: nil) }
  }

  let policy: Policy
  /// The query the current launch was made for; nil when the last query was nil.
  private(set) var latched: Query?
  /// The serial of the current launch while its effect runs.
  private(set) var running: UInt64?
  /// The serial of the latest launch (0 before the first).
  private(set) var lastSerial: UInt64 = 0

  init(policy: Policy) { self.policy = policy }

  /// Decides what the query of a newly reduced state starts or cancels.
  mutating func observe(_ query: Query?) -> Step {
    guard let query else {
      let step = Step(cancel: running, start: nil)
      latched = nil
      running = nil
      return step
    }
    if let previous = latched {
      switch policy {
      case .restartOnEveryState: break
      case .restartWhenChanged(let isEqual): if isEqual(previous, query) { return .nothing }
      case .keepWhileNonNil: return .nothing
      }
    }
    let cancel = running
    lastSerial += 1
    latched = query
    running = lastSerial
    return Step(cancel: cancel, start: (lastSerial, query))
  }

  /// Notes that the effect launched as `serial` ended; a later equal query still does not
  /// restart it.
  mutating func ended(_ serial: UInt64) {
    if running == serial { running = nil }
  }
}

extension LensMachine.Step: Equatable where Query: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.cancel == rhs.cancel && lhs.start?.serial == rhs.start?.serial
      && lhs.start?.query == rhs.start?.query
  }
}

extension LensMachine.Step: CustomStringConvertible {
  var description: String {
    var parts: [String] = []
    if let cancel { parts.append("cancel #\(cancel)") }
    if let start { parts.append("start #\(start.serial) for \(start.query)") }
    return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
  }
}
