import AuthFeature
import WeftSimulation

extension WorkTracker {
  /// An `ActivityReporter` (AuthFeature's hook) bound to this tracker: the sign-in effects
  /// begin and end pieces of work the settler follows.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: any; the reporter's closures are thread-safe.
  public var reporter: ActivityReporter {
    ActivityReporter(begin: { [self] in begin($0) }, end: { [self] in end($0) })
  }
}
