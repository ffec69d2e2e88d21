import Synchronization

/// A `Clock` whose time moves only when you say so: delays, debounces, timeouts, timers and
/// retries run in virtual time, deterministically and instantly.
///
/// ```swift
/// let clock = TestClock()
/// let ticks = Locked(0)
/// let timer = Task {
///   await clock.tracked {
///     for await _ in clock.timer(interval: .seconds(1)) { ticks.withLock { $0 += 1 } }
///   }
/// }
/// await clock.waitForSleepers(count: 1)      // the timer is set
/// await clock.advance(by: .seconds(5))       // 5 ticks: each one re-arms the timer
/// ```
///
/// > Important: `advance(by:)` moves time to each deadline in the window in turn, resumes the
/// > sleepers due there (ties in the order they began sleeping), and waits until the work it
/// > woke has slept again, ended, or waits on something else, before it looks for the next
/// > deadline — so a timer that re-arms fires once per period in the window. The work it
/// > waits for is the work it can see: the effects of feedback systems (and of a `TestStore`
/// > given this clock, whose effects started by `send` it also waits for until their first
/// > sleep), and work run in `tracked(_:)`. A plain task woken by the clock is resumed and
/// > not waited for; await `waitForSleepers(count:)` for it — never `Task.yield()` loops.
///
/// A sleep whose deadline has passed (`sleep(for: .zero)`) suspends like any other until
/// the clock next advances, even by zero (`await advance()`).
///
/// - Complexity: `sleep` is O(s) (sorted insert), `advance` O(k + s) per deadline, s =
///   sleepers, k = sleepers that come due, plus the woken work.
/// - Note: Isolation: thread-safe; any isolation may sleep or advance.
/// - Note: Allocations: one continuation per sleep; one group per `advance` step that wakes
///   traced work.
public final class TestClock: Clock, Sendable {
  /// An instant of virtual time, counted from the clock's creation.
  public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
    /// Time elapsed since the clock's zero.
    public var offset: Duration

    /// Makes an instant at `offset` from the clock's zero.
    public init(offset: Duration = .zero) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    public func duration(to other: Instant) -> Duration { other.offset - offset }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

    public var description: String { "t+\(offset)" }
  }

  struct Sleeper {
    var id: UInt64
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
    /// The traced work sleeping, which `advance` waits for once it wakes it.
    var trace: WakeTrace?
    /// When it began sleeping, and how many advances had ended then.
    var began: Instant
    var advancesBefore: Int
  }

  struct State {
    var now = Instant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var sleeperWaiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Bool, Never>)] =
      []
    /// Waiters whose timeout came before they were registered.
    var expiredWaiters: Set<UInt64> = []
    /// Advances that have ended.
    var advances = 0
    /// Groups of freshly started work (test stores' effects) `advance` settles first.
    var freshWork: [WeakGroup] = []
  }

  struct WeakGroup {
    weak var group: WakeGroup?
  }

  let state = Locked(State())

  /// Makes a clock at virtual time zero.
  public init() { WakeTrace.clockMade.store(true, ordering: .relaxed) }

  /// The current virtual time.
  public var now: Instant { state.withLock { $0.now } }

  /// The smallest step the clock distinguishes.
  public var minimumResolution: Duration { .zero }

  /// Number of tasks currently sleeping on this clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until the clock advances to `deadline` or past it. A deadline already reached
  /// suspends too, until the next `advance` (even by zero).
  ///
  /// - Throws: `CancellationError` if the task is cancelled while it sleeps (the sleeper
  ///   is removed at once; time need not advance).
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    let trace = WakeTrace.current
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>]? in
          if Task.isCancelled { return nil }
          let sleeper = Sleeper(
            id: id, deadline: deadline, continuation: continuation, trace: trace,
            began: state.now, advancesBefore: state.advances)
          state.sleepers.insert(sleeper, at: state.dueCount(through: deadline))
          return state.takeSatisfiedWaiters()
        }
        guard let waiters else {
          continuation.resume(throwing: CancellationError())
          return
        }
        // Asleep now: the advance that woke this work (if any) may look for the next deadline.
        if let trace, let group = trace.host.markAsleep(trace.key) {
          group.leave(trace.host, trace.key)
        }
        for waiter in waiters { waiter.resume(returning: true) }
      }
    } onCancel: {
      let removed = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      removed?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Runs `operation` as work this clock waits for: when `advance` wakes it, `advance`
  /// continues only once it has slept on the clock again or returned.
  ///
  /// ```swift
  /// let timer = Task { await clock.tracked { for await _ in clock.timer(interval: .seconds(1)) { … } } }
  /// ```
  ///
  /// Effects of feedback systems are traced without it.
  ///
  /// - Complexity: O(1) plus `operation`.
  /// - Note: Isolation: runs `operation` on the caller's isolation.
  /// - Note: Allocations: one record.
  public func tracked<Result>(
    name: String = "tracked work", isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result
  ) async rethrows -> Result {
    let work = TrackedWork(name: name)
    let key = WakeKey(slot: 0, serial: 0)
    defer { work.end(key) }
    return try await WakeTrace.$current.withValue(
      WakeTrace(host: work, key: key), operation: operation, isolation: isolation)
  }

  /// Makes `advance` settle `group` (work freshly started by a test store) before each step.
  package func includeFreshWork(_ group: WakeGroup) {
    state.withLock { state in
      state.freshWork.removeAll { $0.group == nil }
      state.freshWork.append(WeakGroup(group: group))
    }
  }

  /// The sleepers now, for messages: `no task sleeping`, or how many and their deadlines.
  ///
  /// - Complexity: O(s), s = sleepers.
  public var sleeperSummary: String {
    let deadlines = state.withLock { $0.sleepers.map(\.deadline) }
    guard !deadlines.isEmpty else { return "no task sleeping" }
    let tasks = deadlines.count == 1 ? "1 task sleeping" : "\(deadlines.count) tasks sleeping"
    return "\(tasks) (until \(deadlines.map(\.description).joined(separator: ", ")))"
  }

  /// What a test failure shows of the clock: the time, each sleeper's deadline, and which
  /// ones began sleeping after the last `advance` ended — an advance that came too early.
  ///
  /// ```
  /// the TestClock is at t+1.0 seconds; 1 task sleeping: until t+2.0 seconds (began at
  /// t+1.0 seconds, after the last advance)
  /// ```
  ///
  /// - Complexity: O(s), s = sleepers.
  public var timeline: String {
    let (now, advances, sleepers) = state.withLock { ($0.now, $0.advances, $0.sleepers) }
    let head = "the TestClock is at \(now)"
    guard !sleepers.isEmpty else { return "\(head); no task sleeping" }
    let each = sleepers.map { sleeper in
      let late = advances > 0 && sleeper.advancesBefore == advances
      return "until \(sleeper.deadline)"
        + (late ? " (began at \(sleeper.began), after the last advance)" : "")
    }
    let tasks = sleepers.count == 1 ? "1 task sleeping" : "\(sleepers.count) tasks sleeping"
    return "\(head); \(tasks): \(each.joined(separator: ", "))"
  }

  /// Whether a task sleeps that began after the last `advance` ended (that advance came
  /// before it slept).
  ///
  /// - Complexity: O(s), s = sleepers.
  public var hasSleepersAfterLastAdvance: Bool {
    state.withLock { state in
      state.advances > 0 && state.sleepers.contains { $0.advancesBefore == state.advances }
    }
  }

  /// The deadline of the earliest sleeper, if any.
  public var nextDeadline: Instant? { state.withLock { $0.sleepers.first?.deadline } }
}

extension TestClock.State {
  /// How many sleepers are due at `deadline`: they come first (binary search; ties keep the
  /// order they began sleeping in).
  func dueCount(through deadline: TestClock.Instant) -> Int {
    var low = 0
    var high = sleepers.count
    while low < high {
      let mid = (low + high) / 2
      if sleepers[mid].deadline <= deadline { low = mid + 1 } else { high = mid }
    }
    return low
  }

  mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Bool, Never>] {
    var ready: [CheckedContinuation<Bool, Never>] = []
    sleeperWaiters.removeAll { waiter in
      if sleepers.count >= waiter.count {
        ready.append(waiter.continuation)
        return true
      }
      return false
    }
    return ready
  }
}
