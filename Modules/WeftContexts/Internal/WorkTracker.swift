import Synchronization

/// The work a client context has started and not finished: writes on their way to the
/// client and debounce timers. `settle()` waits for all of it; releasing the tracker (with
/// its context) cancels the timers, so nothing sleeps forever on a clock.
///
/// `Sendable` through a `Mutex`: entries are added and removed on the MainActor; only the
/// release may happen elsewhere.
final class WorkTracker: Sendable {
  struct Entry: Sendable {
    let wait: @Sendable () async -> Void
    let cancel: (@Sendable () -> Void)?
  }

  private let entries = Mutex<(next: Int, work: [Int: Entry])>((0, [:]))

  /// A fresh key for work about to start.
  func makeKey() -> Int {
    entries.withLock { entries in
      defer { entries.next &+= 1 }
      return entries.next
    }
  }

  /// Records work under `key`. Call it before the work can finish: work that runs on the
  /// MainActor cannot start before the MainActor code that registers it returns.
  func start(_ key: Int, _ entry: Entry) {
    entries.withLock { $0.work[key] = entry }
  }

  /// Forgets finished work.
  func finish(_ key: Int) {
    _ = entries.withLock { $0.work.removeValue(forKey: key) }
  }

  /// Some unfinished work, if any.
  var any: Entry? { entries.withLock { $0.work.first?.value } }

  /// Whether nothing is pending.
  var isEmpty: Bool { entries.withLock { $0.work.isEmpty } }

  deinit {
    for entry in entries.withLock({ $0.work.values }) { entry.cancel?() }
  }
}
