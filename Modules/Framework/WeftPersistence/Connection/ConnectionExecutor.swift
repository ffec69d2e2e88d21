import Dispatch
import WeftRuntime

/// A serial executor backed by its own dispatch queue, one per connection — or, during a
/// deterministic run (WeftRuntime's `DeterministicRuntime` installed), by a serial queue of
/// runtime jobs, so every SQLite call runs on the runtime's one thread in the schedule's
/// order and an observed fetch is as repeatable as a commit.
///
/// SQLite calls block: disk reads, fsyncs at checkpoints, and waits of up to the busy
/// timeout when another process holds the lock. Running them on Swift's cooperative pool
/// (one thread per core) could stall every task in the app; each connection actor runs on
/// this executor instead, so a blocked connection blocks only its own queue. (On the
/// deterministic runtime everything shares one thread by design.)
///
/// - Note: Isolation: thread-safe; jobs run one at a time, in order.
/// - Note: Allocations: one dispatch block (or runtime body) per job.
final class ConnectionExecutor: SerialExecutor {
  private enum Lane {
    case dispatch(DispatchQueue)
    case runtime(RuntimeSerialQueue)
  }

  private let lane: Lane

  init(label: String) {
    if let runtime = DeterministicRuntime.current {
      lane = .runtime(RuntimeSerialQueue(runtime: runtime))
    } else {
      lane = .dispatch(DispatchQueue(label: label, qos: .userInitiated))
    }
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }

  /// Whether jobs run on a dispatch queue (`false` on the deterministic runtime, whose
  /// schedule must see every connection job as its own).
  var isDispatchQueue: Bool {
    if case .dispatch = lane { return true }
    return false
  }

  /// Runs `body` on the queue, in order with the jobs, without a task: for work started
  /// from synchronous code that would otherwise need a task and two hops. The body may
  /// `assumeIsolated` the actor that runs on this executor (see `checkIsolated`).
  func async(_ body: @escaping @Sendable () -> Void) {
    switch lane {
    case .dispatch(let queue): queue.async(execute: body)
    case .runtime(let queue): queue.async(body)
    }
  }

  /// Traps unless the caller runs on this executor's queue (jobs and `async` bodies do):
  /// lets the runtime accept `assumeIsolated` inside an `async` body.
  func checkIsolated() {
    switch lane {
    case .dispatch(let queue): dispatchPrecondition(condition: .onQueue(queue))
    case .runtime(let queue):
      precondition(queue.isRunning, "expected to run on this connection's executor")
    }
  }
}
