import WeftFeedback

/// Tells whoever composes the app when a piece of this feature's asynchronous work starts
/// and ends, so a simulator can wait until the app is quiescent instead of guessing.
///
/// The composition root passes one bound to its work tracker; tests and apps that do not
/// care pass `.none`. Each `begin(name)` is matched by exactly one `end(name)`.
///
/// ```swift
/// let activity = ActivityReporter(begin: { tracker.begin($0) }, end: { tracker.end($0) })
/// activity.spawn("auth.hop") { await service.dispatchSomething() }
/// ```
///
/// > Important: `begin` is always called synchronously, before the work it announces can
/// > run, and `end` only after that work has announced whatever it started next. That
/// > overlap is what lets a waiter see "busy" without a gap between two pieces of work.
///
/// - Complexity: O(1) per call, plus the closures'.
/// - Note: Isolation: callable from any isolation; the closures must be thread-safe.
/// - Note: Allocations: none of its own; `spawn` makes one task.
public struct ActivityReporter: Sendable {
  /// Called when a named piece of work starts.
  public let begin: @Sendable (String) -> Void
  /// Called when a named piece of work ends.
  public let end: @Sendable (String) -> Void

  /// Makes a reporter from two closures.
  ///
  /// - Complexity: O(1).
  public init(
    begin: @escaping @Sendable (String) -> Void, end: @escaping @Sendable (String) -> Void
  ) {
    self.begin = begin
    self.end = end
  }

  /// A reporter that reports nothing.
  public static let none = ActivityReporter(begin: { _ in }, end: { _ in })

  /// Maps a feedback system's effect activity to `begin` (scheduled) and `end` (finished).
  ///
  /// Pass it as a system's `observingEffects`: `scheduled` is reported synchronously while
  /// the launching event is reduced and `finished` after the effect's last event has been
  /// reduced, so the counts never dip between an effect and what it causes.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: called on the system's host.
  public func effects(_ activity: EffectActivity) {
    switch activity.kind {
    case .scheduled: begin(activity.feedback)
    case .finished: end(activity.feedback)
    case .started, .cancelled: break
    }
  }

  /// Runs `body` in a new task, announced as `name` before the task is created.
  ///
  /// - Complexity: O(1) plus `body`.
  /// - Note: Isolation: `body` runs in a new unstructured task.
  /// - Note: Allocations: one task.
  @discardableResult
  public func spawn(
    _ name: String, _ body: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    begin(name)
    let end = self.end
    return Task {
      await body()
      end(name)
    }
  }
}
