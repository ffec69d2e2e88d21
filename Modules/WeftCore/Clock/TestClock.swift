import Synchronization

/// A `Clock` whose time moves only when you say so: delays, debounces, timeouts and retries
/// run in virtual time, deterministically and instantly.
///
/// ```swift
/// let clock = TestClock()
/// let task = Task { try await clock.sleep(for: .seconds(5)); return "done" }
/// await clock.waitForSleepers(count: 1)   // no Task.yield() loops
/// clock.advance(by: .seconds(5))         // resumes the sleeper
/// ```
///
/// > Important: `advance(by:)` resumes the sleepers that are due, in deadline order (ties in
/// > the order they started sleeping), and returns. It never guesses with `Task.yield()`
/// > loops when the resumed work is done: a test that needs the next sleep to be registered
/// > awaits `waitForSleepers(count:)`, an explicit signal that does not depend on load.
///
/// - Complexity: `sleep` is O(s) (sorted insert) and `advance` O(k + s), s = sleepers,
///   k = sleepers that come due.
/// - Note: Isolation: thread-safe; any isolation may sleep or advance.
/// - Note: Allocations: one continuation per sleep.
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

  fileprivate struct Sleeper {
    var id: UInt64
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  fileprivate struct State {
    var now = Instant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var sleeperWaiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Bool, Never>)] =
      []
    /// Waiters whose timeout came before they were registered.
    var expiredWaiters: Set<UInt64> = []
  }

  private let state = Locked(State())

  /// Makes a clock at virtual time zero.
  public init() {}

  /// The current virtual time.
  public var now: Instant { state.withLock { $0.now } }

  /// The smallest step the clock distinguishes.
  public var minimumResolution: Duration { .zero }

  /// Number of tasks currently sleeping on this clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until virtual time reaches `deadline`; returns at once if it already has.
  ///
  /// - Throws: `CancellationError` if the task is cancelled while it sleeps (the sleeper
  ///   is removed at once; time need not advance).
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let action = state.withLock { state -> SleepAction in
          if deadline <= state.now { return .resume }
          if Task.isCancelled { return .cancel }
          let sleeper = Sleeper(id: id, deadline: deadline, continuation: continuation)
          let index = state.sleepers.insertionIndex { $0.deadline <= deadline }
          state.sleepers.insert(sleeper, at: index)
          return .wake(state.takeSatisfiedWaiters())
        }
        switch action {
        case .resume: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        case .wake(let waiters): for waiter in waiters { waiter.resume(returning: true) }
        }
      }
    } onCancel: {
      let removed = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      removed?.continuation.resume(throwing: CancellationError())
    }
  }

  private enum SleepAction {
    case resume
    case cancel
    case wake([CheckedContinuation<Bool, Never>])
  }

  /// Waits until at least `count` tasks are sleeping on this clock, for at most `timeout` of
  /// real time.
  ///
  /// Use it instead of `Task.yield()` loops to know that the code under test has reached its
  /// sleep. Returns `true` at once if `count` sleepers are already there. A wait that cannot
  /// end — one `waitForSleepers`/`run` pair too many, a seeded drop that skipped a sleep —
  /// never hangs: after `timeout` it returns `false` and says what it waited for and what
  /// sleeps (`WeftDiagnostics`: standard error unless a handler is set; WeftTesting's
  /// `expectSleepers` records it as a test issue at the caller's line instead).
  ///
  /// - Complexity: O(w) per sleep registered while it waits, w = waiters.
  /// - Note: Allocations: one timeout task per call that has to wait.
  @discardableResult
  public func waitForSleepers(
    count: Int = 1, timeout: Duration = .seconds(10), fileID: String = #fileID,
    line: Int = #line
  ) async -> Bool {
    let satisfied = await sleepers(atLeast: count, within: timeout)
    if !satisfied {
      WeftDiagnostics.report(
        Self.timeoutMessage(
          count: count, timeout: timeout, sleeping: sleeperSummary, at: "\(fileID):\(line)"))
    }
    return satisfied
  }

  /// `waitForSleepers(count:timeout:)` without the report: whether `count` tasks slept on this
  /// clock within `timeout` of real time (what a test framework's own reporting builds on).
  ///
  /// - Complexity: as `waitForSleepers(count:timeout:)`.
  public func sleepers(atLeast count: Int, within timeout: Duration) async -> Bool {
    if state.withLock({ $0.sleepers.count >= count }) { return true }
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    let timer = Task.detached { [weak self] in
      do {
        try await Task.sleep(for: timeout)
      } catch {
        return  // the wait ended first
      }
      self?.giveUp(waiter: id)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let ready = state.withLock { state -> Bool? in
        if state.sleepers.count >= count { return true }
        if state.expiredWaiters.remove(id) != nil { return false }
        state.sleeperWaiters.append((id, count, continuation))
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// What a timed-out `waitForSleepers` says.
  static func timeoutMessage(
    count: Int, timeout: Duration, sleeping: String, at location: String
  ) -> String {
    "\(location): TestClock.waitForSleepers(count: \(count)) gave up after \(timeout) of real "
      + "time: \(sleeping). A task the test expected to sleep did not (one wait or run too "
      + "many, or a sleep the code skipped)."
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

  /// Ends the wait `id` with `false` (its timeout passed).
  private func giveUp(waiter id: UInt64) {
    let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard let index = state.sleeperWaiters.firstIndex(where: { $0.id == id }) else {
        state.expiredWaiters.insert(id)
        return nil
      }
      return state.sleeperWaiters.remove(at: index).continuation
    }
    continuation?.resume(returning: false)
  }

  /// Moves virtual time forward by `duration`, resuming every sleeper that comes due, in
  /// deadline order (ties in the order they began sleeping).
  ///
  /// The resumed tasks run afterwards, on their own executors; to continue once they have
  /// slept again, use `waitForSleepers(count:)` — never `Task.yield()` loops.
  public func advance(by duration: Duration = .zero) {
    let target = state.withLock { $0.now.advanced(by: duration) }
    advance(to: target)
  }

  /// Moves virtual time forward to `deadline` (never backwards), resuming due sleepers in
  /// deadline order.
  ///
  /// - Complexity: O(k + s), k = due sleepers, s = sleepers.
  public func advance(to deadline: Instant) {
    let due = state.withLock { state -> [Sleeper] in
      let count = state.sleepers.insertionIndex { $0.deadline <= deadline }
      let due = Array(state.sleepers.prefix(count))
      state.sleepers.removeFirst(count)
      if state.now < deadline { state.now = deadline }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// The deadline of the earliest sleeper, if any.
  public var nextDeadline: Instant? { state.withLock { $0.sleepers.first?.deadline } }

  /// Advances to the latest deadline among the current sleepers, resuming all of them in
  /// deadline order. Sleepers registered by the resumed tasks are left for the next call.
  public func run() {
    guard let last = state.withLock({ $0.sleepers.last?.deadline }) else { return }
    advance(to: last)
  }
}

extension TestClock.State {
  fileprivate mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Bool, Never>] {
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

extension Array {
  /// The index after the last element for which `belongsBefore` holds, assuming the array
  /// is partitioned by it (binary search).
  fileprivate func insertionIndex(where belongsBefore: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let mid = (low + high) / 2
      if belongsBefore(self[mid]) { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
