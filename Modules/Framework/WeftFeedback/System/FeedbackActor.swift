/// The actor a feedback system runs on when it is not given one.
///
/// It has no state of its own: its only job is to be a serial executor for one system, so
/// that a service's events are reduced one at a time, off the MainActor.
///
/// ```swift
/// let system = FeedbackSystem(initial: .idle, reduce: reduce, feedbacks: feedbacks)
/// // same as `on: FeedbackActor()`
/// ```
///
/// - Complexity: O(1); its jobs are the system's.
/// - Note: Isolation: an actor; hosts a system's reducer, feedback rules and effect tasks.
/// - Note: Allocations: one actor per system that uses the default.
public actor FeedbackActor {
  /// Makes a fresh host.
  public init() {}
}
