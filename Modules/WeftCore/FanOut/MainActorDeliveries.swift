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
/// - Note: Allocations: one task per burst (the job: the Swift runtime makes 4 allocations
///   for it on Linux, measured, however the closure is written); one array when two or more
///   cells are pending in one burst.
public final class MainActorDeliveries: Sendable {
  /// The queue every `StateCell` uses.
  public static let shared = MainActorDeliveries()

  /// Delivers one cell's pending changes: built by the cell where its state type is
  /// concrete, so the job runs specialized code.
  @usableFromInline
  typealias Drain = @MainActor @Sendable (any MainActorDrainable) -> Void

  /// A cell waiting for the drain, with the function that drains it.
  private struct PendingCell {
    let cell: any MainActorDrainable
    /// Built where the cell committed, where its state type is concrete: it calls the
    /// cell's specialized `deliverPendingMainActorChanges()`.
    let drain: Drain

    @MainActor func run() { drain(cell) }
  }

  private struct State {
    /// The first pending cell, kept apart so that a burst on one cell (the common case)
    /// needs no array; later cells go to `more`.
    var first: PendingCell?
    var more: [PendingCell] = []
    var scheduled = false
    var paused = false
    var jobs: UInt64 = 0

    var isEmpty: Bool { first == nil }

    mutating func append(_ entry: PendingCell) {
      if let first {
        // A cell delivered directly (`deliverPendingMainActorChanges()`) since it joined asks
        // again on its next commit; once in the list is enough, the drain finds its changes.
        if first.cell !== entry.cell { more.append(entry) }
      } else {
        first = entry
      }
    }
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
  func enqueue(_ cell: any MainActorDrainable, drain: @escaping Drain) {
    state.withLock { state in
      state.append(PendingCell(cell: cell, drain: drain))
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
      guard !state.isEmpty, !state.scheduled else { return }
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
  ///
  /// A task, not a parked task resumed through a continuation: on Linux a continuation
  /// resumes on the global executor and then hops to the MainActor (a cross-thread wake and
  /// two enqueues, measured), where a `@MainActor` task is enqueued on the MainActor's queue
  /// directly.
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
    let (first, more) = state.withLock { state -> (PendingCell?, [PendingCell]) in
      if scheduled { state.scheduled = false }
      if scheduled && state.paused { return (nil, []) }
      guard let first = state.first else { return (nil, []) }
      state.first = nil
      var more: [PendingCell] = []
      if !state.more.isEmpty { swap(&more, &state.more) }
      state.jobs &+= 1
      return (first, more)
    }
    guard let first else { return false }
    first.run()
    for entry in more { entry.run() }
    return true
  }
}
