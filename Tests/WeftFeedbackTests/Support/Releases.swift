import WeftCore

@testable import WeftFeedback

/// Named one-shot signals: effects call `signal(_:)` (or capture a `token(_:)` that signals
/// its own release), and a test awaits `released(_:)` / `signaled(_:)` instead of guessing
/// when something happened.
final class Releases: Sendable {
  /// An object that reports its own release.
  final class Token: Sendable {
    let name: String
    private let releases: Releases

    fileprivate init(_ name: String, _ releases: Releases) {
      self.name = name
      self.releases = releases
    }

    deinit { releases.record(name) }
  }

  private struct State {
    var released: Set<String> = []
    var waiters: [(names: Set<String>, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Locked(State())

  func token(_ name: String) -> Token { Token(name, self) }

  /// Signals `name` (for example "this effect started").
  func signal(_ name: String) { record(name) }

  /// Returns once every name in `names` was signaled.
  func signaled(_ names: Set<String>) async { await released(names) }

  /// Returns once every token named in `names` was released.
  func released(_ names: Set<String>) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if names.isSubset(of: state.released) { return true }
        state.waiters.append((names, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  private func record(_ name: String) {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.released.insert(name)
      var ready: [CheckedContinuation<Void, Never>] = []
      state.waiters.removeAll { waiter in
        guard waiter.names.isSubset(of: state.released) else { return false }
        ready.append(waiter.continuation)
        return true
      }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }
}
