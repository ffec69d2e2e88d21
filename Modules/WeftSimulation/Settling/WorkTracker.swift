import WeftCore

/// Counts the app's asynchronous work in flight and the tracked sleeps parked on virtual
/// time, so `AppRuntime.settle()` can tell "still running" from "waiting for the clock"
/// without guessing.
///
/// Two numbers decide everything:
/// - `inFlight` (N): pieces of work that have begun and not ended — a sync pass, a sign-in
///   effect, a hop between clients, a realtime transition. Each is one sequential task at a
///   time (work that spawns more work begins the new piece before ending its own).
/// - `parked` (S): tasks of that work sleeping on the `SimulationClock`.
///
/// When N is zero the app is quiescent. When every piece of work is parked (S ≥ N) nothing
/// can happen until virtual time moves, so the settler wakes the earliest sleeper. Otherwise
/// some task is running, and the settler waits for the next change — an explicit signal
/// sent by `begin`, `end`, a park or a wake; never a yield loop or a real sleep.
///
/// Sleepers are woken one at a time, earliest deadline first and in the order they parked
/// for equal deadlines, and only once everything else is parked again: the whole app runs as
/// one deterministic sequence under a seed.
///
/// ```swift
/// let tracker = WorkTracker()
/// tracker.begin("sync.pass")
/// Task { defer { tracker.end("sync.pass") }; try await clock.sleep(for: .seconds(2)) }
/// // tracker.status: inFlight 1, parked 1 → the settler advances the clock 2 s
/// ```
///
/// # Performance
/// One lock per call; a park keeps a sorted array of sleepers (O(s) insert, s = parked
/// sleepers, a handful in practice). Nothing here is on a fan-out path.
///
/// - Complexity: `begin`/`end` O(1) amortized; park O(s); wake O(s).
/// - Note: Isolation: thread-safe (one lock); callable from any isolation.
/// - Note: Allocations: one continuation per park or per waiter.
public final class WorkTracker: Sendable {
  struct Sleeper {
    var id: UInt64
    var deadline: TestClock.Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  struct Waiter {
    var id: UInt64
    var continuation: CheckedContinuation<Void, Never>
  }

  struct State {
    var inFlight = 0
    var names: [String: Int] = [:]
    var sleepers: [Sleeper] = []
    var nextID: UInt64 = 0
    var generation: UInt64 = 0
    var waiters: [Waiter] = []
    var stalled = false
    var unmatchedEnds: [String] = []

    mutating func changed() -> [CheckedContinuation<Void, Never>] {
      generation &+= 1
      guard !waiters.isEmpty else { return [] }
      defer { waiters.removeAll() }
      return waiters.map(\.continuation)
    }
  }

  /// A point-in-time view of the tracker.
  ///
  /// - Complexity: O(1) to make and copy.
  /// - Note: Isolation: a `Sendable` value; any isolation.
  public struct Status: Sendable, Equatable, CustomStringConvertible {
    /// Pieces of work in flight (N).
    public var inFlight: Int
    /// Tracked sleepers parked on the simulation clock (S).
    public var parked: Int
    /// The earliest parked deadline.
    public var nextDeadline: TestClock.Instant?
    /// Increases on every change; pass it to `waitForChange(since:)`.
    public var generation: UInt64

    /// Whether nothing is in flight.
    public var isIdle: Bool { inFlight == 0 }
    /// Whether everything in flight is waiting for virtual time.
    public var isWaitingForClock: Bool { inFlight > 0 && parked >= inFlight }

    public var description: String {
      "in flight \(inFlight), parked \(parked)"
        + (nextDeadline.map { ", next deadline \($0)" } ?? "")
    }
  }

  private let state = Locked(State())

  /// Makes an idle tracker.
  ///
  /// - Complexity: O(1).
  public init() {}

  // MARK: Work

  /// Announces that a piece of work named `name` has begun.
  ///
  /// - Complexity: O(1) amortized.
  public func begin(_ name: String) {
    let waiters = state.withLock { state in
      state.inFlight += 1
      state.names[name, default: 0] += 1
      return state.changed()
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Announces that a piece of work named `name` has ended.
  ///
  /// An `end` without a matching `begin` is recorded (see `unmatchedEnds`) and ignored, so
  /// a bookkeeping bug shows up in diagnostics instead of a negative count.
  ///
  /// - Complexity: O(1) amortized.
  public func end(_ name: String) {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      guard let count = state.names[name], count > 0 else {
        state.unmatchedEnds.append(name)
        return []
      }
      state.names[name] = count == 1 ? nil : count - 1
      state.inFlight -= 1
      return state.changed()
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Runs `body` in a new task as a piece of work named `name`, begun before the task is
  /// created.
  ///
  /// - Complexity: O(1) plus `body`.
  /// - Note: Allocations: one task.
  @discardableResult
  public func spawn(
    _ name: String, _ body: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    begin(name)
    return Task {
      await body()
      self.end(name)
    }
  }

  /// Runs `body` as a piece of work named `name` in the caller's task.
  ///
  /// - Complexity: O(1) plus `body`.
  public func track<T>(
    _ name: String, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
  ) async rethrows -> T {
    begin(name)
    defer { end(name) }
    return try await body()
  }

  /// The current counts.
  public var status: Status {
    state.withLock { state in
      Status(
        inFlight: state.inFlight, parked: state.sleepers.count,
        nextDeadline: state.sleepers.first?.deadline, generation: state.generation)
    }
  }

  /// The names of the work in flight with their counts, sorted: `["sync.pass×1"]`.
  public var inFlightNames: [String] {
    state.withLock { state in
      state.names.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }
    }
  }

  /// `end` calls that had no matching `begin` (a bookkeeping bug when non-empty).
  public var unmatchedEnds: [String] { state.withLock { $0.unmatchedEnds } }

  // MARK: Parking on virtual time

  /// Parks the calling task until the settler wakes it at `deadline` (see `SimulationClock`).
  ///
  /// - Throws: `CancellationError` if the task is cancelled while parked; the sleeper is
  ///   removed at once, in the cancelling task, so the counts never include it afterwards.
  func park(until deadline: TestClock.Instant) async throws {
    let id = state.withLock { state -> UInt64 in
      state.nextID &+= 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
          if Task.isCancelled { return (false, []) }
          let sleeper = Sleeper(id: id, deadline: deadline, continuation: continuation)
          let index = state.sleepers.firstIndex { $0.deadline > deadline } ?? state.sleepers.count
          state.sleepers.insert(sleeper, at: index)
          return (true, state.changed())
        }
        if !outcome.0 { continuation.resume(throwing: CancellationError()) }
        for waiter in outcome.1 { waiter.resume() }
      }
    } onCancel: {
      let removed = state.withLock {
        state -> (CheckedContinuation<Void, any Error>, [CheckedContinuation<Void, Never>])? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        let sleeper = state.sleepers.remove(at: index)
        return (sleeper.continuation, state.changed())
      }
      if let (continuation, waiters) = removed {
        continuation.resume(throwing: CancellationError())
        for waiter in waiters { waiter.resume() }
      }
    }
  }

  /// Wakes the earliest parked sleeper (first parked among equal deadlines).
  ///
  /// - Returns: whether there was one.
  @discardableResult
  func wakeFirst() -> Bool {
    let taken = state.withLock {
      state -> (CheckedContinuation<Void, any Error>, [CheckedContinuation<Void, Never>])? in
      guard !state.sleepers.isEmpty else { return nil }
      let sleeper = state.sleepers.removeFirst()
      return (sleeper.continuation, state.changed())
    }
    guard let (continuation, waiters) = taken else { return false }
    continuation.resume()
    for waiter in waiters { waiter.resume() }
    return true
  }

  // MARK: Waiting

  /// Returns once the tracker changed after `generation` (or at once if it already has), or
  /// when `stall()` is called.
  ///
  /// - Note: Isolation: any. Cancelling the waiting task returns at once.
  /// - Complexity: O(1).
  public func waitForChange(since generation: UInt64) async {
    let id = state.withLock { state -> UInt64 in
      state.nextID &+= 1
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let ready = state.withLock { state -> Bool in
          if state.generation != generation || state.stalled || Task.isCancelled { return true }
          state.waiters.append(Waiter(id: id, continuation: continuation))
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      let removed = state.withLock { state -> CheckedContinuation<Void, Never>? in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiters.remove(at: index).continuation
      }
      removed?.resume()
    }
  }

  /// Marks the tracker stalled and wakes every waiter (the settler's watchdog).
  func stall() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.stalled = true
      return state.changed()
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Whether `stall()` was called since the last `clearStall()`.
  var isStalled: Bool { state.withLock { $0.stalled } }

  /// Clears the stalled mark.
  func clearStall() { state.withLock { $0.stalled = false } }

  /// Clears the stalled mark if nothing is in flight, in one lock; returns whether nothing
  /// was (the settler's shortcut when there is nothing to settle).
  func clearStallIfIdle() -> Bool {
    state.withLock { state in
      guard state.inFlight == 0 else { return false }
      state.stalled = false
      return true
    }
  }
}
