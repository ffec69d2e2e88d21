import Dispatch
import WeftCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `TaskExecutor` (SE-0417) that runs jobs on one ``POSIXWebSocket``'s reader thread, for
/// ``WebSocketConfiguration/providesTaskExecutor``: a task that prefers it and awaits
/// `receive()` is resumed on the thread that read the message, between two polls of the
/// socket, instead of being woken on the cooperative pool (one thread switch per message
/// fewer).
///
/// The reader thread runs the queued jobs before each poll; a job enqueued from another thread
/// while the reader sleeps in `poll` wakes it through a pipe (one byte, written only when it
/// sleeps). Once the reader thread has ended, jobs run on Dispatch's global queue, so a task
/// that still prefers this executor keeps running.
///
/// - Complexity: `enqueue` is one lock round trip, plus one `write` when the reader sleeps.
/// - Note: Isolation: thread-safe (state behind WeftCore's `Locked`); ``runJobs()``,
///   ``willPoll()``, ``didPoll(woken:)`` and ``end()`` from the reader thread only.
final class WebSocketThreadExecutor: TaskExecutor {
  private struct State {
    var jobs: [UnownedJob] = []
    /// The reader thread is in (or about to enter) `poll` and must be woken for a job.
    var polling = false
    /// The reader thread has ended: jobs go to Dispatch.
    var ended = false
    /// Polls the pipe ended (for tests).
    var wakeUps = 0
  }

  private let state = Locked(State())
  /// The pipe's read end, polled by the reader thread next to the socket.
  let wakeDescriptor: Int32
  private let wakeWriter: Int32

  /// Makes the executor and its wake-up pipe (both ends non-blocking).
  init() throws(WebSocketError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw .socket("pipe: \(String(cString: strerror(errno)))")
    }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    wakeDescriptor = ends[0]
    wakeWriter = ends[1]
  }

  deinit {
    // Nothing writes once the executor is gone: `enqueue` needs a reference.
    _ = close(wakeDescriptor)
    _ = close(wakeWriter)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    enum Next { case queued, wake, forward }
    let next = state.withLock { state -> Next in
      if state.ended { return .forward }
      state.jobs.append(job)
      guard state.polling else { return .queued }
      state.polling = false
      return .wake
    }
    switch next {
    case .queued: break
    case .wake:
      var byte: UInt8 = 1
      // A full pipe (EAGAIN) already holds a wake-up the reader has not drained: enough.
      _ = write(wakeWriter, &byte, 1)
    case .forward: runOnDispatch(job)
    }
  }

  /// Runs the queued jobs, and those they enqueue, until none is left. Reader thread only,
  /// holding no lock.
  func runJobs() {
    while true {
      let jobs = state.withLock { state -> [UnownedJob] in
        defer { state.jobs = [] }
        return state.jobs
      }
      if jobs.isEmpty { return }
      for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
  }

  /// Before the reader's poll: false when jobs arrived meanwhile (run them instead of
  /// polling); true when an `enqueue` from now on wakes the poll through ``wakeDescriptor``.
  func willPoll() -> Bool {
    state.withLock { state in
      if !state.jobs.isEmpty { return false }
      state.polling = true
      return true
    }
  }

  /// After the reader's poll; `woken`: ``wakeDescriptor`` was readable (its bytes are read).
  func didPoll(woken: Bool) {
    state.withLock { state in
      state.polling = false
      if woken { state.wakeUps += 1 }
    }
    guard woken else { return }
    var bytes = [UInt8](repeating: 0, count: 64)
    while bytes.withUnsafeMutableBytes({ read(wakeDescriptor, $0.baseAddress, $0.count) }) > 0 {}
  }

  /// How many polls a job from another thread ended through the pipe.
  var wakeUps: Int { state.withLock { $0.wakeUps } }

  /// The reader thread is ending: jobs queued and to come run on Dispatch's global queue.
  func end() {
    let left = state.withLock { state -> [UnownedJob] in
      state.ended = true
      defer { state.jobs = [] }
      return state.jobs
    }
    for job in left { runOnDispatch(job) }
  }

  /// Runs `job` on Dispatch's global queue, still as this executor's (the reader thread has
  /// ended).
  private func runOnDispatch(_ job: UnownedJob) {
    DispatchQueue.global().async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
  }
}
