import WeftCore

/// What the later planted bugs write: orders created, and how many tasks of a two-task
/// handshake finished.
struct Board: Sendable, Equatable {
  var submitted = false
  var orders = 0
  var handshakes = 0
}

/// Owns the board.
actor BoardClient: Client {
  nonisolated let cell = StateCell(Board(), name: "Board")
}

/// A backend that creates one record per call.
actor OrderBackend {
  private(set) var created = 0
  func create() -> Int {
    created += 1
    return created
  }
}

/// A signal two tasks exchange. Planted bug 5: `wait` does not check whether the signal was
/// already given, so a signal given between a task's check and its wait is lost.
actor Rendezvous {
  private var given: Set<String> = []
  private var waiters: [String: UnsafeContinuation<Void, Never>] = [:]
  func isGiven(_ name: String) -> Bool { given.contains(name) }
  func give(_ name: String) {
    given.insert(name)
    waiters.removeValue(forKey: name)?.resume()
  }
  func wait(for name: String) async {
    await withUnsafeContinuation { waiters[name] = $0 }
  }
  /// A correct wait: returns at once when the signal was given.
  func waitChecked(for name: String) async {
    guard !given.contains(name) else { return }
    await wait(for: name)
  }
}

/// The later bugs, written as an app would write them: plain async functions, actor hops.
@MainActor
final class MoreRaces {
  let board = BoardClient()
  let backend = OrderBackend()
  let rendezvous = Rendezvous()

  /// Planted bug 4 (check-then-act across an await): the submit button checks that nothing
  /// was submitted, awaits the backend creating the order, then marks it submitted. A second
  /// submit that checks in between creates a second order.
  func submit() async {
    guard !board.snapshot.state.submitted else { return }
    _ = await backend.create()
    await board.update {
      $0.submitted = true
      $0.orders += 1
    }
  }

  /// The same submit from the keyboard's return key, after a little work (one hop).
  func submitFromKeyboard() async {
    await Task.yield()
    await submit()
  }

  /// Planted bug 5, first task: gives its signal, then waits for the other's.
  func handshakeFirst() async {
    await rendezvous.give("first")
    await rendezvous.waitChecked(for: "second")
    await board.update { $0.handshakes += 1 }
  }

  /// Planted bug 5, second task: waits for the first's signal (checked, then awaited after
  /// a hop: a signal given in between is lost), then gives its own.
  func handshakeSecond() async {
    if await !rendezvous.isGiven("first") {
      await Task.yield()
      await rendezvous.wait(for: "first")
    }
    await rendezvous.give("second")
    await board.update { $0.handshakes += 1 }
  }
}
