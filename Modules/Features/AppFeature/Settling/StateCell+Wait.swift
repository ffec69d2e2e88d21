import Synchronization
import WeftCore

extension StateCell {
  /// Returns once `condition` holds for the cell's state: at once if it already does,
  /// otherwise at the first commit that makes it true — an explicit signal, never polling.
  ///
  /// - Complexity: one synchronous subscription for the wait; `condition` runs per commit.
  /// - Note: Isolation: any; the condition runs on the committing isolation.
  /// - Note: Allocations: one subscription and one continuation.
  func wait(until condition: @escaping @Sendable (State) -> Bool) async {
    let gate = Gate()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      gate.arm(continuation)
      let subscription = observeSynchronously(
        Selector(id: ObjectIdentifier(gate)) { condition($0) }.deliveringEveryCommit()
      ) { change in
        if change.value { gate.open() }
      }
      gate.keep(subscription)
      if condition(state) { gate.open() }
    }
  }
}

/// A one-shot continuation that also holds the subscription feeding it.
private final class Gate: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Void, Never>?
    var subscription: Subscription?
    var opened = false
  }

  private let state = Mutex(State())

  func arm(_ continuation: CheckedContinuation<Void, Never>) {
    state.withLock { $0.continuation = continuation }
  }

  func keep(_ subscription: Subscription) {
    let cancel = state.withLock { state -> Bool in
      if state.opened { return true }
      state.subscription = subscription
      return false
    }
    if cancel { subscription.cancel() }
  }

  func open() {
    let (continuation, subscription) = state.withLock {
      state -> (CheckedContinuation<Void, Never>?, Subscription?) in
      state.opened = true
      defer {
        state.continuation = nil
        state.subscription = nil
      }
      return (state.continuation, state.subscription)
    }
    subscription?.cancel()
    continuation?.resume()
  }
}
