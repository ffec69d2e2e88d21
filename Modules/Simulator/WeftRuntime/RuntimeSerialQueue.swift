/// A serial queue of bodies run as jobs of the deterministic runtime, in order, one at a
/// time: what a custom `SerialExecutor` (WeftPersistence's connection executor) uses instead
/// of a dispatch queue during a deterministic run, so its work runs on the runtime's thread
/// in the schedule's order.
///
/// Like a default actor, it hands the runtime one job at a time: the next body is enqueued
/// when the previous one has run, so an explored schedule may run other jobs in between but
/// never reorders this queue.
///
/// ```swift
/// let queue = RuntimeSerialQueue(runtime: runtime)
/// queue.async { print("first") }
/// queue.async { print("second") }   // after "first", whatever the schedule
/// ```
///
/// - Complexity: O(1) amortized per body.
/// - Note: Isolation: `async` from any thread; bodies run on the runtime's thread.
/// - Note: Allocations: one closure per body.
public final class RuntimeSerialQueue: Sendable {
  struct State: Sendable {
    var pending: [@Sendable () -> Void] = []
    var head = 0
    var scheduled = false
    var running = false
  }

  private let runtime: DeterministicRuntime
  private let state = RuntimeLock(State())

  /// Makes a queue on `runtime`.
  ///
  /// - Complexity: O(1).
  public init(runtime: DeterministicRuntime) {
    self.runtime = runtime
  }

  /// Runs `body` after every body given before it.
  ///
  /// - Complexity: O(1) amortized.
  public func async(_ body: @escaping @Sendable () -> Void) {
    let schedule = state.withLock { state -> Bool in
      state.pending.append(body)
      guard !state.scheduled else { return false }
      state.scheduled = true
      return true
    }
    if schedule { runtime.loop.enqueue(.body { self.runNext() }, lane: .global) }
  }

  /// Whether a body of this queue is running now (for `checkIsolated`).
  public var isRunning: Bool { state.withLock { $0.running } }

  private func runNext() {
    let body = state.withLock { state -> (@Sendable () -> Void)? in
      guard state.head < state.pending.count else {
        state.scheduled = false
        return nil
      }
      let body = state.pending[state.head]
      state.head += 1
      if state.head == state.pending.count {
        state.pending.removeAll(keepingCapacity: true)
        state.head = 0
      }
      state.running = true
      return body
    }
    guard let body else { return }
    let started = RealClock.monotonicNanoseconds
    body()
    let elapsed = RealClock.monotonicNanoseconds &- started
    runtime.serialWorkNanoseconds.withLock { $0 &+= elapsed }
    let more = state.withLock { state -> Bool in
      state.running = false
      guard state.head < state.pending.count else {
        state.scheduled = false
        return false
      }
      return true
    }
    if more { runtime.loop.enqueue(.body { self.runNext() }, lane: .global) }
  }
}
