import WeftCore

/// Which observations watch which tables, and the wake-up signal of each.
///
/// A commit looks up only the tables it changed and yields one `Void` to each matching
/// observation's signal stream. A signal stream buffers at most one element, so a burst of
/// commits during one fetch collapses into a single re-fetch — and because a signal sent
/// after a fetch started is always buffered, the last commit of a burst is never missed.
///
/// - Complexity: a commit is O(t + m), t = tables changed, m = observations woken;
///   observations of other tables cost nothing. Register and unregister are O(r), r = tables
///   in the observation's region.
/// - Note: Isolation: thread-safe (one lock, never held while yielding).
/// - Note: Allocations: one array of signals per commit that wakes an observation.
final class ObservationCenter: Sendable {
  typealias Signal = AsyncStream<Void>.Continuation

  private struct Registration {
    var tables: Set<String>
    let signal: Signal
    var task: Task<Void, Never>?
  }

  private struct State {
    var nextID: UInt64 = 0
    var registrations: [UInt64: Registration] = [:]
    var byTable: [String: Set<UInt64>] = [:]
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var isClosed = false

    mutating func index(_ id: UInt64, tables: Set<String>) {
      for table in tables { byTable[table, default: []].insert(id) }
    }

    mutating func unindex(_ id: UInt64, tables: Set<String>) {
      for table in tables {
        byTable[table]?.remove(id)
        if byTable[table]?.isEmpty == true { byTable[table] = nil }
      }
    }
  }

  private let state = Locked(State())

  /// Number of live observations (registered and not yet finished).
  var count: Int { state.withLock { $0.registrations.count } }

  /// Registers an observation of `tables`; `nil` when the database is closed.
  func register(tables: Set<String>, signal: Signal) -> UInt64? {
    state.withLock { state in
      if state.isClosed { return nil }
      state.nextID += 1
      let id = state.nextID
      state.registrations[id] = Registration(tables: tables, signal: signal, task: nil)
      state.index(id, tables: tables)
      return id
    }
  }

  /// Remembers the task that runs observation `id`'s fetches.
  func attach(_ task: Task<Void, Never>, to id: UInt64) {
    state.withLock { $0.registrations[id]?.task = task }
  }

  /// Widens observation `id` to `tables` (its fetch read more than it declared).
  func update(_ id: UInt64, tables: Set<String>) {
    state.withLock { state in
      guard let old = state.registrations[id]?.tables else { return }
      state.unindex(id, tables: old)
      state.registrations[id]?.tables = tables
      state.index(id, tables: tables)
    }
  }

  /// Stops waking observation `id` (its consumer went away, or its task ended).
  func unregister(_ id: UInt64) {
    let (signal, waiters) = state.withLock {
      state -> (Signal?, [CheckedContinuation<Void, Never>]) in
      guard let registration = state.registrations.removeValue(forKey: id) else { return (nil, []) }
      state.unindex(id, tables: registration.tables)
      guard state.registrations.isEmpty else { return (registration.signal, []) }
      defer { state.idleWaiters.removeAll() }
      return (registration.signal, state.idleWaiters)
    }
    signal?.finish()
    for waiter in waiters { waiter.resume() }
  }

  /// Wakes every observation of a table in `changed`.
  func didCommit(_ changed: Set<String>) {
    let signals = state.withLock { state -> [Signal] in
      if state.registrations.isEmpty { return [] }
      var woken = Set<UInt64>()
      var signals: [Signal] = []
      for table in changed {
        guard let ids = state.byTable[table] else { continue }
        for id in ids where woken.insert(id).inserted {
          if let signal = state.registrations[id]?.signal { signals.append(signal) }
        }
      }
      return signals
    }
    for signal in signals { signal.yield() }
  }

  /// Refuses new observations and ends the current ones.
  func close() {
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      state.isClosed = true
      return state.registrations.values.compactMap(\.task)
    }
    for task in tasks { task.cancel() }
  }

  /// Returns once no observation is live (every consumer went away and every fetch task
  /// ended). For tests that check nothing outlives them.
  func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = state.withLock { state -> Bool in
        if state.registrations.isEmpty { return true }
        state.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }
}
