import FormsFeature

/// Why a runtime action failed. Every action reports its failure as a value; none traps.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and compare.
public enum AppRuntimeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An app-state action was misused (unknown tab or sheet, nothing to pop, …).
  case app(AppActionError)
  /// The grade-weights form or its context tree refused (the context's typed error).
  case grades(GradeWeightsError)
  /// A harness ran the app an hour of virtual time after an action and timers were still
  /// pending: work that keeps rescheduling itself (`next`: the earliest pending deadline, in
  /// virtual time). Never thrown live.
  case notIdle(pendingTimers: Int, next: Duration)
  /// A harness was asked to move time, and the app runs on the real clock (off the
  /// deterministic runtime). Never thrown live.
  case realClock
  /// The app could not be (re)launched: the database did not open.
  case launch(String)

  public var description: String {
    switch self {
    case .app(let error): error.description
    case .grades(let error): error.description
    case .notIdle(let count, let next):
      "the app was not idle after an hour of virtual time: \(count) timer(s) pending, the "
        + "next at \(next) — work keeps rescheduling itself (clear the network faults)"
    case .realClock:
      "time cannot be advanced off the deterministic runtime: the app runs on the real clock"
    case .launch(let detail): "the app could not launch: \(detail)"
    }
  }
}
