#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A process-wide runtime that owns every task, actor hop and sleep: every job of the
/// process — the global executor's, every default actor's, the MainActor's, task groups' —
/// runs on one thread in an order the schedule seed fixes, and every scheduled job
/// (`Task.sleep`, `sleep` on `ContinuousClock`, `SuspendingClock`) waits on virtual time.
///
/// Install it as the first statement of an executable's `main.swift`, before anything
/// asynchronous has run; after that, `settle()` runs until no job is runnable, and
/// `fireNextTimer(upTo:)` moves virtual time to the next deadline:
///
/// ```swift
/// // main.swift
/// let runtime = DeterministicRuntime.install()   // nil where the SPI is missing
/// Task { @MainActor in
///   startApp()
///   await runtime?.settle()                       // every task has run or is sleeping
///   await runtime?.advance(by: .seconds(1))       // timers due within 1 s ran in order
///   exit(0)
/// }
/// DeterministicRuntime.runMainLoop()              // never returns while the runtime runs
/// ```
///
/// With no task settling, a program that awaits a sleep goes on: the loop fires the earliest
/// timer when nothing else can run, as real time would. When nothing can run and no timer
/// is set, it waits `stallSeconds` of real time for another thread to hand it a job, then
/// reports a stall (standard error, exit code 1).
///
/// - Note: Isolation: `Sendable`; `settle`/`advance` from any task of the run.
/// - Complexity: see `RunQueue`; one lock per enqueue.
public final class DeterministicRuntime: Sendable {
  let loop: RuntimeLoop
  /// Real time spent running `RuntimeSerialQueue` jobs, in nanoseconds.
  let serialWorkNanoseconds = RuntimeLock<UInt64>(0)
  private static let installed = RuntimeLock<DeterministicRuntime?>(nil)

  private init(loop: RuntimeLoop) {
    self.loop = loop
  }

  /// Installs the runtime, once per process; returns `nil` where the executor SPI is missing
  /// (Apple platforms before 26.4), and the same runtime on a second call.
  ///
  /// - Parameters:
  ///   - scheduleSeed: `nil` for arrival order; a seed for an explored order.
  ///   - stallSeconds: how long, in real time, nothing may run before a stall is reported.
  /// - Complexity: O(1).
  /// - Note: Isolation: call before any asynchronous work has run (first statement of
  ///   `main.swift`).
  public static func install(
    scheduleSeed: UInt64? = nil, stallSeconds: Double = 30
  ) -> DeterministicRuntime? {
    installed.withLock { current in
      if let current { return current }
      let exactClocks = VirtualWorld.isAvailable
      let loop = RuntimeLoop(stallSeconds: stallSeconds, exactClocks: exactClocks) {
        description in
        let line = "error: the app cannot go on: \(description)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        exit(1)
      }
      loop.state.withLock { $0.queue.chooser = ScheduleChooser(seed: scheduleSeed) }
      guard installRuntimeExecutors(loop) else { return nil }
      ContinuationProbe.start()
      if exactClocks { VirtualWorld.start() }
      current = DeterministicRuntime(loop: loop)
      return current
    }
  }

  /// The installed runtime, if any.
  public static var current: DeterministicRuntime? { installed.withLock { $0 } }

  /// Runs the runtime's loop on the calling thread (the main thread, from a synchronous
  /// `main.swift`); returns when it is stopped. Without an installed runtime, returns at once.
  ///
  /// - Note: Isolation: the main thread.
  public static func runMainLoop() {
    guard current != nil else { return }
    do {
      try runMainExecutor()
    } catch {
      fatalError("WeftRuntime: the main loop failed: \(error)")
    }
  }

  /// Virtual time since the runtime started (or since the last `reset(scheduleSeed:)`).
  ///
  /// - Complexity: O(1).
  public var now: Duration { .nanoseconds(Int64(clamping: loop.state.withLock { $0.queue.now })) }

  /// Real time spent running `RuntimeSerialQueue` jobs since the start — WeftPersistence's
  /// SQLite work, which runs on those queues on the runtime: what a report calls database
  /// time.
  ///
  /// - Complexity: O(1).
  public var serialQueueTime: Duration {
    .nanoseconds(Int64(clamping: serialWorkNanoseconds.withLock { $0 }))
  }

  /// The schedule seed in force (`nil`: arrival order).
  public var scheduleSeed: UInt64? { loop.state.withLock { $0.queue.chooser.seed } }

  /// The chooser in force: its decisions so far when it records, and where a scripted
  /// schedule stopped matching the run.
  ///
  /// - Complexity: O(d) for the copy, d = decisions recorded.
  public var chooser: ScheduleChooser { loop.state.withLock { $0.queue.chooser } }

  /// Jobs run since the start.
  public var jobsRun: UInt64 { loop.state.withLock { $0.queue.jobsRun } }

  /// When each parked timer falls due, in virtual time, earliest first.
  ///
  /// - Complexity: O(t), t = timers.
  public var pendingTimers: [Duration] {
    loop.state.withLock { state in
      state.queue.pendingTimers.map { .nanoseconds(Int64(clamping: $0.deadline)) }
    }
  }

  /// The tasks last seen suspending on a continuation that the runtime has not seen resumed,
  /// by task id and name (`Task(name:)`); `nil` when the executable does not link
  /// CContinuationProbe (SimulatorKit links it). Seen: `withUnsafeContinuation`, and
  /// `withCheckedContinuation` where the optimizer inlined it (release builds); not the Swift
  /// runtime's own continuations (AsyncStream's). A task resumed onto a default actor and
  /// finished there is not seen leaving ("last seen").
  ///
  /// - Complexity: O(w), w = waiting tasks (at most 64 are kept).
  public var continuationWaiters: [ContinuationWaiter]? { ContinuationProbe.waiters() }

  /// `continuationWaiters` as a diagnostic's clause (`tasks last seen suspending on a
  /// continuation that nothing resumed: 'name' (task 7), task 9`), or `nil` when none was seen.
  ///
  /// - Complexity: O(w), w = waiting tasks.
  public var continuationWaitersSummary: String? {
    guard let waiters = continuationWaiters, !waiters.isEmpty else { return nil }
    return ContinuationProbe.summary(of: waiters)
  }

  /// The earliest parked timer's deadline, if any.
  public var nextDeadline: Duration? {
    loop.state.withLock { $0.queue.nextDeadline }.map { .nanoseconds(Int64(clamping: $0)) }
  }

  /// Suspends the caller until no job is runnable: every other task has finished or waits
  /// for a timer. Timers stay parked.
  ///
  /// - Complexity: the work that runs.
  public func settle() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      loop.state.withLock { $0.settleWaiters.append(continuation) }
    }
  }

  /// Fires the earliest timer due by `limit` (virtual time), moving `now` to its deadline;
  /// its job runs at the next `settle()`.
  ///
  /// - Returns: whether a timer fired.
  /// - Complexity: O(t).
  public func fireNextTimer(upTo limit: Duration) -> Bool {
    let limit = VirtualDelay.nanoseconds(limit)
    return loop.state.withLock { state in
      defer { state.publishTime() }
      return state.fireNextTimer(upTo: limit)
    }
  }

  /// Moves virtual time forward by `duration`, running every timer due by then in deadline
  /// order (ties in the order they were set, or a seeded draw) and letting what each wakes
  /// settle; ends at exactly `now + duration`.
  ///
  /// - Complexity: O(d · t) for d timers due.
  public func advance(by duration: Duration) async {
    let target = now + duration
    await settle()
    while fireNextTimer(upTo: target) { await settle() }
    let nanoseconds = VirtualDelay.nanoseconds(target)
    loop.state.withLock { state in
      state.queue.advanceTime(to: nanoseconds)
      state.publishTime()
    }
  }

  /// Runs until the process is idle: settles, then fires timer after timer (each wake
  /// settling in turn) until no timer is pending or the next one falls more than `limit` of
  /// virtual time from now — retries, backoff and latency run to their end. What a test
  /// calls after an action whose effects it checks, and `wait` commands whose condition is
  /// "nothing left to do".
  ///
  /// - Parameter limit: how far virtual time may move (one hour by default).
  /// - Returns: the earliest deadline still pending past the limit, or `nil` when idle.
  /// - Complexity: O(d · t) for d timers fired.
  @discardableResult
  public func runUntilIdle(within limit: Duration = .seconds(3_600)) async -> Duration? {
    let end = now + limit
    await settle()
    while fireNextTimer(upTo: end) { await settle() }
    return nextDeadline
  }

  /// Starts a new run: drops every parked timer (the previous run's sleepers never wake),
  /// sets virtual time to zero and the schedule to `scheduleSeed`.
  ///
  /// - Returns: how many timers were dropped.
  /// - Complexity: O(t).
  @discardableResult
  public func reset(scheduleSeed: UInt64?) -> Int {
    reset(chooser: ScheduleChooser(seed: scheduleSeed))
  }

  /// `reset(scheduleSeed:)` with any chooser: a scripted schedule (a replayed schedule
  /// string, a forced prefix), recording its decisions or not.
  ///
  /// - Returns: how many timers were dropped.
  /// - Complexity: O(t).
  @discardableResult
  public func reset(chooser: ScheduleChooser) -> Int {
    loop.state.withLock { state in
      var fresh = RunQueue<RuntimeLoop.QueuedJob>(chooser: chooser)
      var dropped = 0
      // Keep the jobs that are ready (the caller's own continuation among them); drop timers.
      while let (job, lane) = state.queue.next() { fresh.enqueue(job, lane: lane) }
      dropped = state.queue.pendingTimers.count
      _ = state.queue.removeAll()
      state.queue = fresh
      state.publishTime()
      return dropped
    }
  }

  /// Whether the process's clock reads and random draws are the runtime's: the executable
  /// links `CDeterministicWorld` (SimulatorKit brings it), so `ContinuousClock.now`,
  /// `SuspendingClock.now`, `Date()`, `DispatchTime.now()` and `clock_gettime` read virtual
  /// time, and `SystemRandomNumberGenerator`, `Int.random`, `Double.random` and `UUID()` draw
  /// from a seeded stream. A sleep is then exactly as long as asked. When false (an
  /// executable without it, Apple platforms), reads are real and a sleep's length is inferred
  /// from its real-clock deadline.
  ///
  /// - Complexity: O(1).
  public var answersClockReads: Bool { loop.exactClocks }

  /// Restarts the world a launch sees: random draws from `seed` (the same seed, the same
  /// `UUID()`s and `Double.random`s in the same order), and the wall clock (`Date()`,
  /// `CLOCK_REALTIME`) reading `wallClock` — seconds since 1970 — now, advancing with virtual
  /// time. Does nothing when `answersClockReads` is false.
  ///
  /// - Complexity: O(1).
  public func restartWorld(seed: UInt64, wallClock: Duration) {
    guard loop.exactClocks else { return }
    let now = loop.state.withLock { $0.queue.now }
    VirtualWorld.restart(seed: seed, wallClock: Self.nanoseconds(since1970: wallClock), now: now)
  }

  /// What the wall clock (`Date()`) reads now, as a duration since 1970; the real one when
  /// `answersClockReads` is false.
  ///
  /// - Complexity: O(1).
  public var wallClock: Duration {
    guard loop.exactClocks else { return .nanoseconds(RealClock.wallNanoseconds) }
    return .nanoseconds(VirtualWorld.wallClockStart) + now
  }

  /// Random words drawn from the world's stream since the last `restartWorld` (0 when
  /// `answersClockReads` is false): a count a report can compare between runs.
  ///
  /// - Complexity: O(1).
  public var randomDraws: UInt64 { VirtualWorld.randomDraws }

  /// The default wall clock at a launch: 2026-01-15T09:00:00Z.
  public static let defaultWallClock = Duration.seconds(VirtualWorld.defaultWallClockStart)

  private static func nanoseconds(since1970 duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
  }

  /// Starts recording every job the runtime runs (`JobRecord`), dropping any earlier record:
  /// what `weft-sim run --check-determinism` compares between two runs.
  ///
  /// - Complexity: O(1); then O(1) per job run, one record each.
  public func startJobTrace() {
    loop.state.withLock { state in
      state.trace = []
      state.traceMark = ""
      state.taskNames = [:]
      state.timerDeviation = nil
    }
  }

  /// Labels the jobs recorded from now on (a flow step, `step 4, line 9`); `label` is not
  /// evaluated when nothing is recorded.
  ///
  /// - Complexity: O(1), plus `label` when recording.
  public func markJobTrace(_ label: @autoclosure () -> String) {
    loop.state.withLock { state in
      guard state.trace != nil else { return }
      state.traceMark = label()
    }
  }

  /// Names the running task in the job trace: `name`, or its own `Task(name:)` name. Needed
  /// for a task that hops between executors, whose hops the runtime sees when it is no longer
  /// running; a task that yields, starts another or resumes one is named by the runtime.
  /// Nothing when not recording, or when no task runs.
  ///
  /// - Complexity: O(1).
  public func nameRunningTask(_ name: String? = nil) {
    loop.state.withLock { state in
      guard state.trace != nil else { return }
      let (id, own) = ContinuationProbe.runningTask()
      guard id != 0, let label = name ?? own else { return }
      state.taskNames[id] = label
    }
  }

  /// The jobs recorded since `startJobTrace()`, each with the name of the task that ran
  /// (`JobRecord.name`, where one was seen), and stops recording (empty when it never
  /// started).
  ///
  /// - Complexity: O(n), n = records.
  public func takeJobTrace() -> [JobRecord] {
    loop.state.withLock { state in
      defer { state.trace = nil }
      var records = state.trace ?? []
      for index in records.indices {
        let inside = records[index].inside.flatMap { state.taskNames[$0] }
        if records[index].task == 0 {
          records[index].name = inside
        } else {
          records[index].name = state.taskNames[records[index].task]
          records[index].wakes = inside
        }
      }
      return records
    }
  }

  /// Announces work that runs on a thread outside the runtime (a C library's callback
  /// thread): until the matching `endExternalWork(_:)`, a settle waits for it, in real time.
  /// The escape hatch for an app's own threads; Weft's modules do not need it.
  ///
  /// - Complexity: O(1).
  public func beginExternalWork(_ name: String) {
    loop.state.withLock { state in
      state.external[name, default: 0] += 1
      state.externalCount += 1
    }
  }

  /// Ends work announced with `beginExternalWork(_:)`.
  ///
  /// - Complexity: O(1).
  public func endExternalWork(_ name: String) {
    loop.state.withLock { state in
      guard let count = state.external[name], count > 0 else { return }
      state.external[name] = count == 1 ? nil : count - 1
      state.externalCount -= 1
    }
    loop.state.signal()
  }
}
