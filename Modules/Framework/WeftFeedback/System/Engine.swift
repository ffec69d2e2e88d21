import WeftCore

/// The part of a feedback system that only its host touches: the reduced state, the
/// reducer, and one reactor per feedback.
///
/// - Note: Isolation: kept in a `HostConfined`; every member is used on the host only.
final class Engine<State: Sendable, Event: Sendable> {
  var state: State
  let reduce: @Sendable (inout State, Event) -> Void
  let feedbacks: [Feedback<State, Event>]
  /// Made when the system starts, on the host, in the order of `feedbacks`.
  var reactors: [Reactor<State, Event>] = []
  var started = false
  /// Called after each reduction, before feedback rules run (stores' routes, test stores).
  let onTransition: (@Sendable (Event, State) -> Void)?

  init(
    state: State, reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>], onTransition: (@Sendable (Event, State) -> Void)?
  ) {
    self.state = state
    self.reduce = reduce
    self.feedbacks = feedbacks
    self.onTransition = onTransition
  }
}

/// The part of a feedback system any isolation may touch, under its lock: the event queue,
/// the running effects and the idle waiters.
struct SharedLoopState<Event: Sendable>: Sendable {
  struct RunningEffect: Sendable {
    var task: Task<Void, Never>?
    /// False once cancelled: its events are dropped and, if it has not begun, it never will.
    var live = true
    let detail: String?
  }

  struct Waiter: Sendable {
    let id: UInt64
    let maxEffects: Int
    let needsEmptyQueue: Bool
    let continuation: CheckedContinuation<Void, Never>
  }

  var cancelled = false
  var queue = FIFO<Event>()
  /// True while the host runs the drain loop; events queued meanwhile are reduced by it.
  var draining = false
  /// True while a host job that will drain the queue is pending.
  var drainScheduled = false
  var effects: [EffectID: RunningEffect] = [:]
  /// Host jobs (scheduled drains, effect endings) that hold the system right now. The
  /// system is idle only when this is 0, so a waiter never sees it idle while one of its
  /// own jobs still holds a strong reference to it.
  var hostJobs = 0
  var waiters: [Waiter] = []
  var nextWaiterID: UInt64 = 0
  /// Effects a `TestClock` is waiting for, with the group it waits on (empty outside tests).
  var awake: [EffectID: WakeGroup] = [:]
  /// While a `TestStore` sends: the group the effects it starts join until they first sleep.
  var fresh: WakeGroup?

  func isSatisfied(_ waiter: Waiter) -> Bool {
    effects.count <= waiter.maxEffects
      && (!waiter.needsEmptyQueue
        || (queue.isEmpty && !draining && !drainScheduled && hostJobs == 0))
  }

  /// Removes and returns the waiters whose condition now holds.
  mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
    guard !waiters.isEmpty else { return [] }
    var ready: [CheckedContinuation<Void, Never>] = []
    var waiting: [Waiter] = []
    for waiter in waiters {
      if isSatisfied(waiter) { ready.append(waiter.continuation) } else { waiting.append(waiter) }
    }
    waiters = waiting
    return ready
  }
}

/// The lock-protected part of a system, as an object of its own so that host jobs can hold
/// it (to finish their bookkeeping) without holding the system.
final class LoopShared<Event: Sendable>: Sendable {
  private let state = Locked(SharedLoopState<Event>())
  /// The feedbacks' names, for `TestClock` messages.
  let feedbackNames: [String]

  init(feedbackNames: [String]) { self.feedbackNames = feedbackNames }

  func withLock<Result>(_ body: (inout SharedLoopState<Event>) -> Result) -> Result {
    state.withLock(body)
  }

  /// Runs a host job: `body` gets the system if it is still alive and returns wake-ups;
  /// they, and the ones the job's end makes due, are resumed after the system's strong
  /// reference is gone.
  func hostJob<System: AnyObject & Sendable>(
    _ system: WeakReference<System>,
    _ body: (System) -> [CheckedContinuation<Void, Never>]
  ) {
    withLock { $0.hostJobs += 1 }
    let ready = system.withObject(body)
    let idle = withLock { shared in
      shared.hostJobs -= 1
      return shared.takeSatisfiedWaiters()
    }
    for waiter in ready + idle { waiter.resume() }
  }
}
