import AuthFeature
import WeftCore

/// Counts announced work and lets a test wait until all of it has ended — the explicit
/// signal the tests wait on instead of sleeping or yielding.
final class ActivityCounter: Sendable {
  private struct State {
    var active = 0
    var begun: [String] = []
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Locked(State())

  var reporter: ActivityReporter {
    ActivityReporter(
      begin: { [self] name in
        state.withLock {
          $0.active += 1
          $0.begun.append(name)
        }
      },
      end: { [self] _ in
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
          state.active -= 1
          guard state.active == 0 else { return [] }
          defer { state.waiters = [] }
          return state.waiters
        }
        for waiter in waiters { waiter.resume() }
      })
  }

  var active: Int { state.withLock { $0.active } }
  var begun: [String] { state.withLock { $0.begun } }

  /// Returns once no announced work is active.
  func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = state.withLock { state -> Bool in
        if state.active == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }
}
