import WeftCore

/// The tasks a client context has started and not finished: writes on their way to the
/// client and debounce timers, with how to await and cancel each. `waitForWrites()` waits for all
/// of it; releasing the set (with its context) cancels the timers, so nothing sleeps forever
/// on a clock. It serves `waitForWrites()` only: under `weft-sim` the deterministic runtime sees the
/// same tasks as jobs and sleeps, with nothing announced to it.
///
/// `Sendable` through WeftCore's `Locked` (visible to the thread sanitizer): entries are
/// added and removed on the MainActor; only the release may happen elsewhere.
final class PendingWork: Sendable {
  struct Entry: Sendable {
    /// Waits for the work to finish.
    let wait: @Sendable () async -> Void
    /// Cancels the work when the tracker goes away (timers); `nil` lets it finish (writes).
    var cancel: (@Sendable () -> Void)? = nil
    /// Whether `waitForWrites()` waits for it now; `nil` means always (writes). A timer is waited
    /// for once its deadline has passed on its clock.
    var isDue: (@Sendable () -> Bool)? = nil
  }

  private let entries = Locked<(next: Int, work: [Int: Entry])>((0, [:]))

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

  /// Some unfinished work that `waitForWrites()` waits for, if any.
  var due: Entry? {  // nil: nothing to wait for
    let work = entries.withLock { Array($0.work.values) }
    return work.first { $0.isDue?() ?? true }
  }

  /// Whether nothing is pending.
  var isEmpty: Bool { entries.withLock { $0.work.isEmpty } }

  deinit {
    for entry in entries.withLock({ $0.work.values }) { entry.cancel?() }
  }
}
