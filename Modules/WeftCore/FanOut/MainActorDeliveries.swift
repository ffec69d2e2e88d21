import Synchronization

/// Something with MainActor deliveries waiting for a job: a `StateCell`.
public protocol MainActorDrainable: AnyObject, Sendable {
  /// Delivers what is pending, on the MainActor.
  @MainActor func deliverPendingMainActorChanges()
}

/// The process-wide MainActor delivery queue: every cell with pending MainActor changes
/// joins it, and ONE MainActor job drains all of them — one job per burst across every
/// client, not one per cell and never one per subscriber.
///
/// Simulators and tests can `pause()` the queue: commits keep marking cells pending, no job
/// runs, and `drainNow()` (or `resume()`) delivers everything at a point they choose. That
/// makes the number of jobs and deliveries a pure function of the commits, however the
/// threads interleave — the property an exact-count performance gate needs.
///
/// ```swift
/// MainActorDeliveries.shared.pause()
/// await client.update { $0.count += 1 }      // views not called yet
/// MainActorDeliveries.shared.drainNow()      // one job: every view sees the latest value
/// MainActorDeliveries.shared.resume()
/// ```
///
/// # Read-your-writes
/// A commit that leaves MainActor changes pending has, before it returns, a drain job on the
/// MainActor's queue: either the one it scheduled or one another committer scheduled (the
/// job is created in the same critical section that marks it scheduled). A MainActor caller
/// that awaited the commit resumes through that same queue, after the job, so what it reads
/// next through MainActor mirrors (`ClientContext.state`) is the state it committed or
/// newer. While the queue is paused, the guarantee is `drainNow()`'s.
///
/// - Complexity: `enqueue` O(1); a drain O(c + deliveries), c = pending cells.
/// - Note: Isolation: thread-safe; draining runs on the MainActor.
public final class MainActorDeliveries: Sendable {
  /// The queue every `StateCell` uses.
  public static let shared = MainActorDeliveries()

  private struct State {
    var pending: [any MainActorDrainable] = []
    var scheduled = false
    var paused = false
    var jobs: UInt64 = 0
  }

  private let state = Locked(State())

  init() {}

  /// MainActor drains run so far (scheduled jobs and `drainNow()` calls that found work).
  public var jobCount: UInt64 { state.withLock { $0.jobs } }

  /// Whether jobs are held back.
  public var isPaused: Bool { state.withLock { $0.paused } }

  /// Adds `cell` to the next drain, scheduling a MainActor job unless one is already
  /// scheduled or the queue is paused.
  @usableFromInline
  func enqueue(_ cell: any MainActorDrainable) {
    state.withLock { state in
      state.pending.append(cell)
      guard !state.scheduled, !state.paused else { return }
      state.scheduled = true
      scheduleDrainLocked()
    }
  }

  /// Holds MainActor jobs back until `resume()`; pending changes accumulate (coalesced per
  /// cell and selector: the latest value is delivered once).
  public func pause() { state.withLock { $0.paused = true } }

  /// Lets jobs run again and schedules one if changes are pending.
  public func resume() {
    state.withLock { state in
      state.paused = false
      guard !state.pending.isEmpty, !state.scheduled else { return }
      state.scheduled = true
      scheduleDrainLocked()
    }
  }

  /// Creates the drain job. Called with the lock held, in the same critical section that
  /// sets `scheduled`: a committer that finds `scheduled` set therefore knows the job is
  /// already on the MainActor's queue, ahead of anything it enqueues there afterwards (such
  /// as the resumption of a MainActor caller awaiting its `update`). Creating the job after
  /// releasing the lock let such a caller resume — and read a stale mirror — before the job
  /// existed. Enqueueing a task never takes this lock, so this cannot deadlock.
  private func scheduleDrainLocked() {
    Task { @MainActor in self.drain(scheduled: true) }
  }

  /// Delivers everything pending now, in one drain. Returns whether there was anything.
  @MainActor
  @discardableResult
  public func drainNow() -> Bool { drain(scheduled: false) }

  @MainActor
  @discardableResult
  private func drain(scheduled: Bool) -> Bool {
    let cells = state.withLock { state -> [any MainActorDrainable] in
      if scheduled { state.scheduled = false }
      if scheduled && state.paused { return [] }
      let cells = state.pending
      state.pending.removeAll()
      if !cells.isEmpty { state.jobs &+= 1 }
      return cells
    }
    for cell in cells { cell.deliverPendingMainActorChanges() }
    return !cells.isEmpty
  }
}
