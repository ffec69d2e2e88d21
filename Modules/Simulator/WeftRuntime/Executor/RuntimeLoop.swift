#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The deterministic runtime's loop: a `RunQueue` behind one lock, drained on one thread.
///
/// Each turn it takes one decision under the lock (`LoopState.decide()`), then acts on it
/// outside: run a job, resume the tasks waiting for the app to settle, wait for work
/// announced from another thread, or — when nothing can run and nobody is settling — fire
/// the earliest timer (a program that awaits a sleep goes on, as it would in real time).
/// When nothing at all can run, it gives other threads `stallSeconds` of real time to hand it
/// a job, then reports a stall with what is pending.
///
/// - Complexity: O(1) per job in arrival order (see `RunQueue`), plus one lock per enqueue.
/// - Note: Isolation: `enqueue`/`schedule` from any thread; `run` on the runtime's thread.
final class RuntimeLoop: Sendable {
  /// A job in the queue, with the real time the job that enqueued it started (`nil` for an
  /// enqueue from another thread): a sleep's deadline is read from the real clock in the job
  /// that enqueued the one that schedules the sleep, or in that one.
  struct QueuedJob: Sendable {
    var job: RuntimeJob
    var enqueuerStarted: ContinuousClock.Instant?
    /// Whether a thread other than the loop's enqueued (or scheduled) it.
    var fromOtherThread = false
  }

  typealias Lane = RunQueue<QueuedJob>.Lane

  struct LoopState: Sendable {
    var queue = RunQueue<QueuedJob>()
    var settleWaiters: [UnsafeContinuation<Void, Never>] = []
    var external: [String: Int] = [:]
    var externalCount = 0
    var stopped = false
    var waiting = false
    var runningLane: Lane?
    /// The loop's thread, as `RuntimeThread.current` gave it.
    var thread: UInt?
    /// When the job now running started, in real time.
    var jobStarted: ContinuousClock.Instant?
    /// When the job that enqueued the running one started (or the running one, when it came
    /// from another thread or a timer set outside any job): the earliest real time at which
    /// the app can have read the clock for a deadline it schedules now.
    var readWindowStart: ContinuousClock.Instant?
    /// Whether the thread was off the CPU since shortly before the running job started.
    var stalls = StallDetector()

    enum Decision {
      case run(RuntimeJob, Lane)
      case resume([UnsafeContinuation<Void, Never>])
      case waitForOtherThreads
      case timerFired
      case stop
    }

    mutating func finishJob() {
      runningLane = nil
      jobStarted = nil
      readWindowStart = nil
    }

    /// Whether the process's clock reads are virtual (`VirtualWorld`): a deadline on a real
    /// clock is then exact, and no real time is read per job.
    var exactClocks = false
    /// The jobs run since `startTrace`, when recording (`nil`: not recording).
    var trace: [JobRecord]?
    /// The label the next records carry (the flow step).
    var traceMark = ""
    /// Task names seen while recording, by task id (`JobRecord.name`).
    var taskNames: [UInt64: String] = [:]
    /// A timer fired out of order (a preemption), for the next record.
    var timerDeviation: String?

    mutating func record(_ queued: QueuedJob, lane: Lane, decided: Bool) {
      let task = RuntimeLoop.task(of: queued.job)
      var deviation = timerDeviation
      timerDeviation = nil
      if decided, let last = queue.chooser.decisions.last, last.isPreemption {
        deviation = "\(Self.ordinal(Int(last.choice) + 1)) of \(last.count) ready"
      }
      trace?.append(
        JobRecord(
          index: queue.jobsRun, lane: lane == .main ? "main" : "global", task: task,
          runnable: queue.readyCount + 1, virtualTime: queue.now,
          fromOtherThread: queued.fromOtherThread, mark: traceMark, deviation: deviation))
    }

    /// While recording, `job` was enqueued by the running one: the task running, if Swift
    /// still says which (not during a hop), is named now; a job of no task (an actor's
    /// queue) is said to run that task, or else the task it enqueues; a task's job, to wake
    /// the other task it enqueues.
    mutating func noteRunningTask(enqueuing job: RuntimeJob) {
      let (id, name) = ContinuationProbe.runningTask()
      if id != 0, let name, taskNames[id] == nil { taskNames[id] = name }
      guard let count = trace?.count, let last = trace?.last, last.inside == nil else { return }
      let enqueued = RuntimeLoop.task(of: job)
      let inside =
        last.task == 0 ? (id != 0 ? id : enqueued) : (enqueued != last.task ? enqueued : 0)
      if inside != 0 { trace?[count - 1].inside = inside }
    }

    /// `1st`, `2nd`, `3rd`, `4th`, …
    static func ordinal(_ number: Int) -> String {
      let suffix =
        (11...13).contains(number % 100)
        ? "th" : number % 10 == 1 ? "st" : number % 10 == 2 ? "nd" : number % 10 == 3 ? "rd" : "th"
      return "\(number)\(suffix)"
    }

    /// The virtual time last published to `VirtualWorld`.
    var publishedNow: UInt64 = 0

    /// Publishes `queue.now` to the process's clocks when it moved.
    mutating func publishTime() {
      guard exactClocks, queue.now != publishedNow else { return }
      publishedNow = queue.now
      VirtualWorld.setTime(publishedNow)
    }

    mutating func decide() -> Decision {
      if stopped { return .stop }
      let made = queue.chooser.made
      if let (queued, lane) = queue.next() {
        runningLane = lane
        if trace != nil { record(queued, lane: lane, decided: queue.chooser.made > made) }
        if exactClocks {
          publishTime()
          return .run(queued.job, lane)
        }
        let now = ContinuousClock.now
        jobStarted = now
        stalls.jobStarted(at: now)
        readWindowStart = min(queued.enqueuerStarted ?? now, now)
        return .run(queued.job, lane)
      }
      if externalCount > 0 { return .waitForOtherThreads }
      if !settleWaiters.isEmpty {
        defer { settleWaiters.removeAll() }
        return .resume(settleWaiters)
      }
      if fireNextTimer(upTo: .max) { return .timerFired }
      return .waitForOtherThreads
    }

    /// Fires the earliest timer due by `limit` (`RunQueue.fireNextTimer`); while recording, a
    /// timer fired before another due at the same instant is noted for the next record.
    mutating func fireNextTimer(upTo limit: UInt64) -> Bool {
      let made = queue.chooser.made
      guard queue.fireNextTimer(upTo: limit) else { return false }
      if trace != nil, queue.chooser.made > made, let last = queue.chooser.decisions.last,
        last.isPreemption
      {
        timerDeviation = "timer \(last.choice + 1) of \(last.count) due together"
      }
      return true
    }
  }

  let state: RuntimeLock<LoopState>
  /// How long, in real time, the loop waits for another thread when nothing can run.
  let stallSeconds: Double
  let onStall: @Sendable (String) -> Void
  /// Whether the process's clock reads are virtual (`VirtualWorld` started at install).
  let exactClocks: Bool

  init(
    stallSeconds: Double, exactClocks: Bool = false,
    onStall: @escaping @Sendable (String) -> Void
  ) {
    self.stallSeconds = stallSeconds
    self.onStall = onStall
    self.exactClocks = exactClocks
    var state = LoopState()
    state.exactClocks = exactClocks
    self.state = RuntimeLock(state)
  }

  func enqueue(_ job: RuntimeJob, lane: Lane) {
    let current = RuntimeThread.current
    let wake = state.withLock { state in
      let onLoop = state.thread == current
      let queued = QueuedJob(
        job: job, enqueuerStarted: onLoop ? state.jobStarted : nil,
        fromOtherThread: state.thread != nil && !onLoop)
      state.queue.enqueue(
        queued, lane: lane, task: state.queue.chooser.usesKeys ? Self.task(of: job) : 0,
        byRunningJob: onLoop && state.runningLane != nil)
      if state.trace != nil, onLoop, state.runningLane != nil {
        state.noteRunningTask(enqueuing: job)
      }
      return state.waiting
    }
    if wake { state.signal() }
  }

  func schedule(_ job: RuntimeJob, lane: Lane, after delay: UInt64) {
    let current = RuntimeThread.current
    let wake = state.withLock { state in
      // A timer's job is enqueued when it fires, from no job: its own start bounds the window.
      let queued = QueuedJob(
        job: job, enqueuerStarted: nil,
        fromOtherThread: state.thread != nil && state.thread != current)
      state.queue.schedule(
        queued, lane: lane, after: delay,
        task: state.queue.chooser.usesKeys ? Self.task(of: job) : 0)
      return state.waiting
    }
    if wake { state.signal() }
  }

  /// The id of `job`'s task, or 0 for a body or a job of no task.
  static func task(of job: RuntimeJob) -> UInt64 {
    guard case .task(let job) = job else { return 0 }
    return ContinuationProbe.taskID(of: job)
  }

  /// Parks `job` for `delay` of a clock's duration (exact; 0 for a duration that is not
  /// `Swift.Duration`).
  func schedule<D: DurationProtocol>(_ job: RuntimeJob, lane: Lane, after delay: D) {
    schedule(job, lane: lane, after: VirtualDelay.exact(delay))
  }

  /// Parks `job` until `instant` of a clock: exactly `instant - clock.now` when the process's
  /// clocks read virtual time (`VirtualWorld`); otherwise mapped from real time to virtual
  /// time (`VirtualDelay`'s rule).
  func schedule<C: Clock>(_ job: RuntimeJob, lane: Lane, at instant: C.Instant, on clock: C) {
    if exactClocks {
      guard let left = clock.now.duration(to: instant) as? Duration else {
        return schedule(job, lane: lane, after: 0)
      }
      return schedule(job, lane: lane, after: VirtualDelay.roundedUp(left))
    }
    // The CPU clock first: its read is a system call, where a preemption (or a stop) most
    // likely begins; the deadline's distance and the window are then read back to back, so
    // that a stall after them cannot lower one without the other.
    let cpu = StallDetector.threadCPUTime()
    guard let left = clock.now.duration(to: instant) as? Duration else {
      return schedule(job, lane: lane, after: 0)
    }
    schedule(job, lane: lane, after: VirtualDelay.delay(left: left, window: readWindow(cpu: cpu)))
  }

  /// When the app can have read the clock for a deadline scheduled now: since the running
  /// job's start, or the start of the job that enqueued it (a sleep reads the clock, then may
  /// hop once before it schedules), and whether the thread stalled meanwhile (`cpu`: the
  /// thread's CPU time read just before) — when the caller is the loop's thread; `.none`
  /// otherwise.
  func readWindow(cpu: Duration) -> ClockReadWindow {
    state.withLock { state in
      guard let started = state.jobStarted, let windowStart = state.readWindowStart,
        let thread = state.thread, thread == RuntimeThread.current
      else { return .none }
      let now = ContinuousClock.now
      return ClockReadWindow(
        sinceJobStart: started.duration(to: now), sinceEnqueuerStart: windowStart.duration(to: now),
        stalled: state.stalls.stalled(now: now, cpu: cpu), cpu: state.stalls.cpuSinceSample(cpu))
    }
  }

  var isRunningMainJob: Bool {
    state.withLock { state in
      guard state.runningLane == .main, let thread = state.thread else { return false }
      return thread == RuntimeThread.current
    }
  }

  func stop() {
    state.withLock { $0.stopped = true }
    state.signal()
  }

  /// Drains the queue on the calling thread until `stop()`.
  func run<Main: RuntimeJobRunner, Global: RuntimeJobRunner>(main: Main, global: Global) {
    state.withLock { $0.thread = RuntimeThread.current }
    while true {
      switch state.withLock({ $0.decide() }) {
      case .run(.task(let job), let lane):
        if lane == .main { main.runJob(job) } else { global.runJob(job) }
        state.withLock { $0.finishJob() }
      case .run(.body(let body), _):
        body()
        state.withLock { $0.finishJob() }
        state.withLock { $0.runningLane = nil }
      case .resume(let waiters):
        for waiter in waiters { waiter.resume() }
      case .timerFired:
        continue
      case .stop:
        return
      case .waitForOtherThreads:
        waitForOtherThreads()
      }
    }
  }

  /// Nothing can run on this thread: wait for a job from another thread (or for announced
  /// work to end), and report a stall when none comes within `stallSeconds`.
  private func waitForOtherThreads() {
    state.withLock { $0.waiting = true }
    let progressed = state.wait(seconds: stallSeconds) { state in
      !state.queue.isIdle || state.stopped
        || (state.externalCount == 0
          && (!state.settleWaiters.isEmpty || state.queue.nextDeadline != nil))
    }
    state.withLock { $0.waiting = false }
    if !progressed { onStall(stallDescription()) }
  }

  func stallDescription() -> String {
    state.withLock { state in
      var parts = ["no job can run and none arrived for \(stallSeconds) s"]
      if state.externalCount > 0 {
        let names = state.external.keys.sorted().map { "\($0) ×\(state.external[$0]!)" }
        parts.append(
          "work announced on other threads never ended: \(names.joined(separator: ", "))")
      } else {
        parts.append(
          "every task is suspended on something nothing will resume (a continuation never "
            + "resumed, a stream never finished, or a thread outside the runtime)")
        parts.append(ContinuationProbe.describeWaiters())
      }
      return parts.joined(separator: "; ")
    }
  }
}

/// What runs a job: one of the two executors.
protocol RuntimeJobRunner {
  func runJob(_ job: UnownedJob)
}

/// The calling thread's identity as a plain number (`pthread_t` is a pointer on Darwin, so not
/// `Sendable`; its bits are).
enum RuntimeThread {
  static var current: UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
  }
}
