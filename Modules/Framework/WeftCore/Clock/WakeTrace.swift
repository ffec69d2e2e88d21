import Synchronization

/// Names one piece of work a `TestClock` can wake: a slot (a feedback's index, say) and a
/// serial within it.
///
/// - Complexity: O(1) to make, compare and hash.
/// - Note: Isolation: a `Sendable` value.
package struct WakeKey: Hashable, Sendable {
  package let slot: Int
  package let serial: UInt64

  package init(slot: Int, serial: UInt64) {
    self.slot = slot
    self.serial = serial
  }
}

/// What owns traced work (a feedback system's effects, `TestClock.tracked` work) and knows,
/// for each piece, whether it is awake and in which `WakeGroup`.
///
/// - Note: Isolation: thread-safe; called from the clock's `sleep` and `advance`.
package protocol WakeTraceHost: AnyObject, Sendable {
  /// Marks `key` awake in `group` (entering it); false if that work has ended.
  func markAwake(_ key: WakeKey, in group: WakeGroup) -> Bool
  /// Marks `key` asleep and returns the group it was awake in, which the caller leaves.
  func markAsleep(_ key: WakeKey) -> WakeGroup?
  /// The work's name in messages.
  func describe(_ key: WakeKey) -> String
}

/// The traced work the current task runs, if any: set by a feedback system around each
/// effect and by `TestClock.tracked(_:)`, read by `TestClock.sleep` so that the clock knows
/// when work it woke has slept again.
///
/// - Complexity: O(1).
/// - Note: Isolation: a task-local value.
package struct WakeTrace: Sendable {
  package let host: any WakeTraceHost
  package let key: WakeKey

  package init(host: any WakeTraceHost, key: WakeKey) {
    self.host = host
    self.key = key
  }

  /// The work the current task runs.
  @TaskLocal package static var current: WakeTrace?

  /// Whether a `TestClock` was ever made in this process: until then nothing sleeps on one,
  /// so feedback systems skip the trace (an app pays nothing for it, not even the task-local).
  package static var isNeeded: Bool { clockMade.load(ordering: .relaxed) }

  static let clockMade = Atomic<Bool>(false)

  /// Says that the current task's work is about to wait on something other than a clock it
  /// can be woken by (the next element of a sequence): nothing need wait for it.
  ///
  /// - Complexity: O(a) for the group's a awake members.
  package static func suspendingElsewhere() {
    guard let trace = current, let group = trace.host.markAsleep(trace.key) else { return }
    group.leave(trace.host, trace.key)
  }
}

/// Work a `TestClock` woke (or a test store's freshly started effects) and waits for: each
/// member stays in the group until it sleeps again on a clock, ends, or waits on a sequence.
///
/// - Complexity: O(a) per enter and leave, a = awake members (a handful).
/// - Note: Isolation: thread-safe.
/// - Note: Allocations: one per `advance` step that wakes traced work.
package final class WakeGroup: Sendable {
  private struct Member {
    let host: any WakeTraceHost
    let key: WakeKey
  }

  private struct State {
    var members: [Member] = []
    var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    var nextWaiter: UInt64 = 0
    var expired: Set<UInt64> = []
  }

  private let state = Locked(State())

  package init() {}

  /// Counts `key` of `host` as awake.
  package func enter(_ host: any WakeTraceHost, _ key: WakeKey) {
    state.withLock { $0.members.append(Member(host: host, key: key)) }
  }

  /// Counts `key` of `host` as no longer awake; wakes the waiters once none is.
  package func leave(_ host: any WakeTraceHost, _ key: WakeKey) {
    let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
      if let index = state.members.firstIndex(where: { $0.host === host && $0.key == key }) {
        state.members.remove(at: index)
      }
      guard state.members.isEmpty else { return [] }
      defer { state.waiters.removeAll() }
      return state.waiters.map(\.continuation)
    }
    for waiter in ready { waiter.resume(returning: true) }
  }

  /// Whether nothing is awake.
  package var isSettled: Bool { state.withLock { $0.members.isEmpty } }

  /// The awake members, named, for messages.
  package var awakeDescriptions: [String] {
    let members = state.withLock { $0.members }
    return members.map { $0.host.describe($0.key) }
  }

  /// Returns once no member is awake (true), or after `timeout` of real time (false).
  ///
  /// - Note: Allocations: a waiter and a timer task when it has to wait.
  package func settled(within timeout: Duration) async -> Bool {
    let id = state.withLock { state -> UInt64? in
      guard !state.members.isEmpty else { return nil }
      state.nextWaiter += 1
      return state.nextWaiter
    }
    guard let id else { return true }
    let timer = Task.detached { [weak self] in
      do {
        try await Task.sleep(for: timeout)
      } catch {
        return  // settled first
      }
      self?.giveUp(id)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let ready = state.withLock { state -> Bool? in
        if state.members.isEmpty { return true }
        if state.expired.remove(id) != nil { return false }
        state.waiters.append((id, continuation))
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  private func giveUp(_ id: UInt64) {
    let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
        state.expired.insert(id)
        return nil
      }
      return state.waiters.remove(at: index).continuation
    }
    continuation?.resume(returning: false)
  }
}

/// Work a test runs by hand under `TestClock.tracked(_:)`: one key, awake or asleep.
final class TrackedWork: WakeTraceHost {
  private struct State {
    var group: WakeGroup?
    var ended = false
  }

  private let state = Locked(State())
  let name: String

  init(name: String) { self.name = name }

  func markAwake(_ key: WakeKey, in group: WakeGroup) -> Bool {
    let awake = state.withLock { state -> Bool in
      guard !state.ended else { return false }
      state.group = group
      return true
    }
    if awake { group.enter(self, key) }
    return awake
  }

  func markAsleep(_ key: WakeKey) -> WakeGroup? {
    state.withLock { state in
      defer { state.group = nil }
      return state.group
    }
  }

  /// The work ended: leaves the group it was awake in.
  func end(_ key: WakeKey) {
    let group = state.withLock { state -> WakeGroup? in
      state.ended = true
      defer { state.group = nil }
      return state.group
    }
    group?.leave(self, key)
  }

  func describe(_ key: WakeKey) -> String { name }
}
