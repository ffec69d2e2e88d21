import Synchronization

/// Something with MainActor deliveries waiting for a job: a `StateCell`.
public protocol MainActorDrainable: AnyObject, Sendable {
  /// Delivers what is pending, on the MainActor.
  @MainActor func deliverPendingMainActorChanges()
}

/// A MainActor delivery queue: every cell with pending MainActor changes joins its queue,
/// and ONE MainActor job drains all of them — one job per burst across every cell on the
/// queue, not one per cell and never one per subscriber.
///
/// A queue is an instance its owner holds, as swift-nio's `EmbeddedEventLoop` is: a cell
/// uses the queue of its `PerformanceMonitor` (`monitor.deliveries`), which is `shared` unless
/// the monitor was made with another. An app or a test that makes its own queue (and a
/// monitor on it) sees only its own cells' jobs, and pausing it holds back no one else's.
///
/// Simulators and tests can `pause()` a queue: commits keep marking cells pending, no job
/// runs, and `drainNow()` (or `resume()`) delivers everything at a point they choose. That
/// makes the number of jobs and deliveries a pure function of the commits, however the
/// threads interleave — the property an exact-count performance gate needs.
///
/// ```swift
/// let deliveries = MainActorDeliveries()                 // this app's (or test's) own
/// let monitor = PerformanceMonitor(enabled: true, deliveries: deliveries)
/// let client = CounterClient(monitor: monitor)           // its cell enqueues on `deliveries`
/// deliveries.pause()
/// await client.update { $0.count += 1 }      // views not called yet
/// deliveries.drainNow()                      // one job: every view sees the latest value
/// deliveries.resume()
/// ```
///
/// # Read-your-writes
/// A commit that leaves MainActor changes pending has, before it returns, a drain job on the
/// MainActor's queue: either the one it scheduled or one another committer on the same
/// delivery queue scheduled (the job is created in the same critical section that marks it
/// scheduled). A MainActor caller that awaited the commit resumes through the MainActor's
/// queue, after the job, so what it reads next through MainActor mirrors
/// (`ClientContext.state`) is the state it committed or newer. While the queue is paused, the
/// guarantee is `drainNow()`'s.
///
/// - Complexity: `enqueue` O(1); a drain O(c + deliveries), c = pending cells.
/// - Note: Isolation: thread-safe; draining runs on the MainActor. Each queue is separate:
///   pausing, draining and counting one never touches another.
/// - Note: Allocations: one task per burst (the job: the Swift runtime makes 4 allocations
///   for it on Linux, measured, however the closure is written); one array when two or more
///   cells are pending in one burst.
public final class MainActorDeliveries: Sendable {
  /// The process-wide queue: the one `PerformanceMonitor.shared` (and every monitor made
  /// without a queue of its own) hands to its cells.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: thread-safe; shared by everything in the process that uses it, so
  ///   pausing it holds back every such cell. Tests and apps that pause or count jobs should
  ///   own a queue instead (`MainActorDeliveries()`).
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
    /// The cells waiting for the drain. A cell appends itself when its own batch turns
    /// non-empty; one delivered directly (`deliverPendingMainActorChanges()`) since it joined
    /// asks again on its next commit, and once in the batch is enough (the drain finds its
    /// changes), which the check against `first` catches for the common one-cell burst.
    var cells = PendingBatch<PendingCell>()
    var scheduled = false
    var paused = false
    var jobs: UInt64 = 0

    mutating func append(_ entry: PendingCell) {
      if let first = cells.first, first.cell === entry.cell { return }
      cells.append(entry)
    }
  }

  private let state = Locked(State())

  /// Makes an empty, running queue, separate from `shared` and from every other queue.
  /// Hand it to cells through a monitor: `PerformanceMonitor(enabled:deliveries:)`.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: any; the queue is thread-safe.
  public init() {}

  /// MainActor drains run so far on this queue (scheduled jobs and `drainNow()` calls that
  /// found work).
  ///
  /// - Complexity: O(1): one uncontended lock.
  /// - Note: Isolation: thread-safe.
  public var jobCount: UInt64 { state.withLock { $0.jobs } }

  /// Whether this queue's jobs are held back.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: thread-safe.
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

  /// Holds this queue's MainActor jobs back until `resume()`; pending changes accumulate
  /// (coalesced per cell and selector: the latest value is delivered once). Other queues
  /// keep running.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: thread-safe.
  public func pause() { state.withLock { $0.paused = true } }

  /// Lets jobs run again and schedules one if changes are pending.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: thread-safe.
  public func resume() {
    state.withLock { state in
      state.paused = false
      guard !state.cells.isEmpty, !state.scheduled else { return }
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

  /// Delivers everything pending on this queue now, in one drain. Returns whether there was
  /// anything.
  ///
  /// - Complexity: O(c + deliveries), c = pending cells.
  /// - Note: Isolation: MainActor; subscribers run inside this call.
  @MainActor
  @discardableResult
  public func drainNow() -> Bool { drain(scheduled: false) }

  @MainActor
  @discardableResult
  private func drain(scheduled: Bool) -> Bool {
    let cells = state.withLock { state -> PendingBatch<PendingCell> in
      if scheduled { state.scheduled = false }
      if scheduled && state.paused { return PendingBatch() }
      guard !state.cells.isEmpty else { return PendingBatch() }
      state.jobs &+= 1
      return state.cells.take()
    }
    guard !cells.isEmpty else { return false }
    for cell in cells { cell.run() }
    return true
  }
}
