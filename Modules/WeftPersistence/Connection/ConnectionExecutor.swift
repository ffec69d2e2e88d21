import Dispatch

/// A serial executor backed by its own dispatch queue, one per connection.
///
/// SQLite calls block: disk reads, fsyncs at checkpoints, and waits of up to the busy
/// timeout when another process holds the lock. Running them on Swift's cooperative pool
/// (one thread per core) could stall every task in the app; each connection actor runs on
/// this executor instead, so a blocked connection blocks only its own queue.
///
/// - Note: Isolation: thread-safe; jobs run one at a time, in order.
/// - Note: Allocations: one dispatch block per job.
final class ConnectionExecutor: SerialExecutor {
  private let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label, qos: .userInitiated)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }

  /// Runs `body` on the queue, in order with the jobs, without a task: for work started
  /// from synchronous code that would otherwise need a task and two hops. The body may
  /// `assumeIsolated` the actor that runs on this executor (see `checkIsolated`).
  func async(_ body: @escaping @Sendable () -> Void) {
    queue.async(execute: body)
  }

  /// Traps unless the caller runs on this executor's queue (jobs and `async` bodies do):
  /// lets the runtime accept `assumeIsolated` inside an `async` body.
  func checkIsolated() {
    dispatchPrecondition(condition: .onQueue(queue))
  }
}
