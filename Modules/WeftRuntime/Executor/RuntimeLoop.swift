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
  struct LoopState {
    var queue = RunQueue<RuntimeJob>()
    var settleWaiters: [UnsafeContinuation<Void, Never>] = []
    var external: [String: Int] = [:]
    var externalCount = 0
    var stopped = false
    var waiting = false
    var runningLane: RunQueue<RuntimeJob>.Lane?
    var thread: pthread_t?

    enum Decision {
      case run(RuntimeJob, RunQueue<RuntimeJob>.Lane)
      case resume([UnsafeContinuation<Void, Never>])
      case waitForOtherThreads
      case timerFired
      case stop
    }

    mutating func decide() -> Decision {
      if stopped { return .stop }
      if let (job, lane) = queue.next() {
        runningLane = lane
        return .run(job, lane)
      }
      if externalCount > 0 { return .waitForOtherThreads }
      if !settleWaiters.isEmpty {
        defer { settleWaiters.removeAll() }
        return .resume(settleWaiters)
      }
      if queue.fireNextTimer(upTo: .max) { return .timerFired }
      return .waitForOtherThreads
    }
  }

  let state = RuntimeLock(LoopState())
  /// How long, in real time, the loop waits for another thread when nothing can run.
  let stallSeconds: Double
  let onStall: @Sendable (String) -> Void

  init(stallSeconds: Double, onStall: @escaping @Sendable (String) -> Void) {
    self.stallSeconds = stallSeconds
    self.onStall = onStall
  }

  func enqueue(_ job: RuntimeJob, lane: RunQueue<RuntimeJob>.Lane) {
    let wake = state.withLock { state in
      state.queue.enqueue(job, lane: lane)
      return state.waiting
    }
    if wake { state.signal() }
  }

  func schedule(_ job: RuntimeJob, lane: RunQueue<RuntimeJob>.Lane, after delay: UInt64) {
    let wake = state.withLock { state in
      state.queue.schedule(job, lane: lane, after: delay)
      return state.waiting
    }
    if wake { state.signal() }
  }

  var isRunningMainJob: Bool {
    state.withLock { state in
      guard state.runningLane == .main, let thread = state.thread else { return false }
      return pthread_equal(thread, pthread_self()) != 0
    }
  }

  func stop() {
    state.withLock { $0.stopped = true }
    state.signal()
  }

  /// Drains the queue on the calling thread until `stop()`.
  func run<Main: RuntimeJobRunner, Global: RuntimeJobRunner>(main: Main, global: Global) {
    state.withLock { $0.thread = pthread_self() }
    while true {
      switch state.withLock({ $0.decide() }) {
      case .run(.task(let job), let lane):
        if lane == .main { main.runJob(job) } else { global.runJob(job) }
        state.withLock { $0.runningLane = nil }
      case .run(.body(let body), _):
        body()
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
      }
      return parts.joined(separator: "; ")
    }
  }
}

/// What runs a job: one of the two executors.
protocol RuntimeJobRunner {
  func runJob(_ job: UnownedJob)
}
