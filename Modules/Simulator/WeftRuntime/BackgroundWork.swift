import Dispatch

/// Where Weft's modules run work that has no task: on a dispatch queue normally, as a job of
/// the deterministic runtime when one is installed (so it runs on the runtime's thread, in
/// the schedule's order, on virtual time).
///
/// ```swift
/// BackgroundWork.after(.milliseconds(16)) { center.startPass() }
/// ```
///
/// - Note: Isolation: any; bodies run on a dispatch queue, or on the runtime's thread.
public enum BackgroundWork {
  /// Runs `body` after `delay`: real time on a global dispatch queue, or virtual time on the
  /// installed runtime.
  ///
  /// - Complexity: O(t) on the runtime (t = parked timers); O(1) otherwise.
  public static func after(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
    if let runtime = DeterministicRuntime.current {
      runtime.loop.schedule(.body(body), lane: .global, after: VirtualDelay.nanoseconds(delay))
      return
    }
    let nanoseconds = VirtualDelay.nanoseconds(delay)
    DispatchQueue.global(qos: .userInitiated).asyncAfter(
      deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: body)
  }
}
