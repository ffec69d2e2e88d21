/// One step in the life of an effect, reported to a system's effect observer.
///
/// Every launch reports `scheduled`, then either `started` (its code began to run) or, if it
/// was cancelled before it could start, nothing; then possibly `cancelled`; and always
/// `finished` last, once its task has ended and released its operation.
///
/// ```swift
/// let system = FeedbackSystem(initial: State(), reduce: reduce, feedbacks: feedbacks,
///                             on: MainActor.shared, observingEffects: { print($0) })
/// // scheduled load (feedbacks[1]#1) for 42
/// // started load (feedbacks[1]#1) for 42
/// // finished load (feedbacks[1]#1) for 42
/// ```
///
/// - Complexity: O(1) to make; its `detail` is rendered only when an observer is installed.
/// - Note: Isolation: a `Sendable` value.
/// - Note: Allocations: the detail string, if any.
public struct EffectActivity: Sendable, Hashable, CustomStringConvertible {
  /// What happened.
  public enum Kind: String, Sendable, Hashable {
    /// The feedback's rule launched the effect; its task exists but has not run yet.
    case scheduled
    /// The effect's code began to run.
    case started
    /// The effect was cancelled by its feedback's rule or by tearing the system down.
    case cancelled
    /// The effect's task ended (after completing, or after cancellation). Its last event, if
    /// it was still wanted, has been reduced, and the effects that reduction launched have
    /// been scheduled.
    case finished
  }

  /// What happened.
  public let kind: Kind
  /// Which launch it happened to.
  public let effect: EffectID
  /// The feedback's name (`Feedback.named(_:)`), or `feedbacks[i] (kind)`.
  public let feedback: String
  /// The query or payload the effect runs for, described, when it has one.
  public let detail: String?

  /// Makes an activity record.
  public init(kind: Kind, effect: EffectID, feedback: String, detail: String?) {
    self.kind = kind
    self.effect = effect
    self.feedback = feedback
    self.detail = detail
  }

  public var description: String {
    let subject = "\(kind.rawValue) \(feedback) (\(effect))"
    return detail.map { "\(subject) for \($0)" } ?? subject
  }
}
