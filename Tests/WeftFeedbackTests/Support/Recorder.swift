import Synchronization
import WeftCore

@testable import WeftFeedback

/// Records values from any isolation, in arrival order.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Locked<[Value]>([])

  init() {}

  func append(_ value: Value) { storage.withLock { $0.append(value) } }
  var values: [Value] { storage.withLock { $0 } }
  var count: Int { storage.withLock { $0.count } }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let count = Atomic<Int>(0)

  func increment() { count.add(1, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}

/// An object whose lifetime a test checks with a weak reference, and which an effect can
/// mark as having seen its cancellation.
final class Tracked: Sendable {
  let name: String
  private let cancelled = Atomic<Bool>(false)

  init(_ name: String) { self.name = name }

  func markCancelled() { cancelled.store(true, ordering: .relaxed) }
  var sawCancellation: Bool { cancelled.load(ordering: .relaxed) }
}

/// Suspends until the task is cancelled, then marks `tracked`: the shape of an effect that
/// runs until its feedback or the system's teardown stops it.
func suspendUntilCancelled(marking tracked: Tracked? = nil) async {
  let gate = Locked<(waiting: CheckedContinuation<Void, Never>?, cancelled: Bool)>((nil, false))
  await withTaskCancellationHandler {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = gate.withLock { gate -> Bool in
        if gate.cancelled { return true }
        gate.waiting = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  } onCancel: {
    let waiting = gate.withLock { gate -> CheckedContinuation<Void, Never>? in
      gate.cancelled = true
      defer { gate.waiting = nil }
      return gate.waiting
    }
    waiting?.resume()
  }
  tracked?.markCancelled()
}
