import WeftCore
import WeftRuntime

/// Which observations watch which tables, which of them need a re-fetch, and the passes
/// that run those re-fetches.
///
/// A commit looks up only the tables it changed and marks each matching observation dirty.
/// Dirty observations are re-fetched by a *pass*: one job on one reader connection that
/// claims every dirty observation not already being re-fetched and runs their fetches one
/// after another in one read transaction, delivering each value as it comes. So a commit
/// that wakes ten observations costs one hop to a reader and one transaction, not ten.
///
/// Guarantees, for every observation:
/// - Never two re-fetches at once: a claimed observation is *running* until its pass
///   completes; commits meanwhile only mark it dirty again.
/// - No lost commit: a commit marks the observation dirty after the commit is durable, and
///   an observation is claimed (its dirty mark cleared) before its pass's read transaction
///   takes its snapshot. Either the claim came after the commit, and the fetch sees it, or
///   the mark lands on a claimed observation, which is re-fetched when its pass completes.
/// - Coalescing: any number of commits between two claims cause one re-fetch.
/// - Pacing: when a commit lands on a running observation (commits outpace re-fetches), the
///   next pass starts `burstInterval` later, so a burst costs about one pass per interval;
///   a pass is still always scheduled, so the last commit is never lost.
///
/// - Complexity: a commit is O(t + m), t = tables changed, m = observations woken;
///   observations of other tables cost nothing. A pass is O(k) plus k fetches, k = the
///   observations it claims. Register and unregister are O(r), r = tables in the region.
/// - Note: Isolation: thread-safe (one lock, never held while fetching or delivering).
/// - Note: Allocations: per pass, one task, the claimed batch and its outcomes; none per
///   commit that wakes nobody.
final class ObservationCenter: Sendable {
  /// What one re-fetch did.
  enum Outcome: Sendable {
    /// Delivered (or suppressed as a duplicate): nothing more to do.
    case current
    /// The fetch read tables outside its region (given): widen it and fetch again; nothing
    /// was delivered.
    case widened(Set<String>)
    /// The fetch failed and its stream was finished with the error.
    case ended
  }

  /// Runs one observation's fetch on `connection` inside the pass's read transaction
  /// (`Connection.sharedRead`) and delivers the value, given the observation's current
  /// region (lowercased table names). Called on the connection's owner, never concurrently
  /// with itself.
  typealias Refresh = @Sendable (Connection, Set<String>) -> Outcome
  /// Finishes the observation's stream: normally with `nil`, or with the error.
  typealias End = @Sendable ((any Error)?) -> Void

  private struct Registration {
    var tables: Set<String>
    let refresh: Refresh
    let end: End
    /// A commit touched the region since the last claim.
    var isDirty = true
    /// A pass has claimed it and not completed yet.
    var isRunning = false
  }

  /// One claimed re-fetch.
  private struct Claim {
    let id: UInt64
    let tables: Set<String>
    let refresh: Refresh
  }

  private struct State {
    var nextID: UInt64 = 0
    var registrations: [UInt64: Registration] = [:]
    var byTable: [String: Set<UInt64>] = [:]
    /// Dirty observations that are not running, in the order they became dirty (may hold
    /// ids unregistered since; claiming skips them).
    var pending: [UInt64] = []
    /// A pass was started that has not claimed yet: it will take `pending`.
    var passScheduled = false
    /// Passes started and not yet ended.
    var activePasses = 0
    /// Where passes read; set while any observation is registered (so an idle center keeps
    /// no connection alive).
    var route: ReadRoute?
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var settleWaiters: [CheckedContinuation<Void, Never>] = []
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

    /// Marks `id` dirty; queues it unless it is running or already queued.
    mutating func markDirty(_ id: UInt64) {
      guard let registration = registrations[id], !registration.isDirty else { return }
      registrations[id]?.isDirty = true
      if !registration.isRunning { pending.append(id) }
    }

    /// The route to start a pass on, when one is needed and none is waiting to claim.
    mutating func passToStart() -> ReadRoute? {
      guard !pending.isEmpty, !passScheduled, let route else { return nil }
      passScheduled = true
      activePasses += 1
      return route
    }

    mutating func remove(_ id: UInt64) -> Registration? {
      guard let registration = registrations.removeValue(forKey: id) else { return nil }
      unindex(id, tables: registration.tables)
      if registrations.isEmpty {
        route = nil
        pending.removeAll()
      }
      return registration
    }

    /// The waiters to resume when nothing is registered and no pass is running.
    mutating func takeIdleWaiters() -> [CheckedContinuation<Void, Never>] {
      guard registrations.isEmpty, activePasses == 0, !idleWaiters.isEmpty else { return [] }
      defer { idleWaiters.removeAll() }
      return idleWaiters
    }
  }

  private let state = Locked(State())
  /// The pause between passes during a burst (`Configuration.observationBurstInterval`).
  private let burstInterval: Duration

  init(burstInterval: Duration = .zero) {
    self.burstInterval = burstInterval
  }

  /// Number of live observations (registered and not yet finished).
  var count: Int { state.withLock { $0.registrations.count } }

  /// Registers an observation of `tables` and schedules its first fetch; `nil` when the
  /// database is closed.
  func register(
    tables: Set<String>, route: ReadRoute, refresh: @escaping Refresh, end: @escaping End
  ) -> UInt64? {
    let (id, start) = state.withLock { state -> (UInt64?, ReadRoute?) in
      if state.isClosed { return (nil, nil) }
      state.nextID += 1
      let id = state.nextID
      state.registrations[id] = Registration(tables: tables, refresh: refresh, end: end)
      state.index(id, tables: tables)
      state.pending.append(id)
      if state.route == nil { state.route = route }
      return (id, state.passToStart())
    }
    if let start { startPass(on: start) }
    return id
  }

  /// Stops observation `id` (its consumer went away, so its stream is already finished). A
  /// re-fetch of it already running completes, and the finished stream drops its value.
  func unregister(_ id: UInt64) {
    let waiters = state.withLock { state in
      _ = state.remove(id)
      return state.takeIdleWaiters()
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Marks every observation of a table in `changed` dirty and starts a pass if needed.
  func didCommit(_ changed: Set<String>) {
    let start = state.withLock { state -> ReadRoute? in
      if state.registrations.isEmpty { return nil }
      for table in changed {
        guard let ids = state.byTable[table] else { continue }
        for id in ids { state.markDirty(id) }
      }
      return state.passToStart()
    }
    if let start { startPass(on: start) }
  }

  /// Refuses new observations and ends the current ones (their streams finish normally).
  func close() {
    let (ends, waiters) = state.withLock { state -> ([End], [CheckedContinuation<Void, Never>]) in
      state.isClosed = true
      let ends = state.registrations.values.map(\.end)
      state.registrations.removeAll()
      state.byTable.removeAll()
      state.pending.removeAll()
      state.route = nil
      return (ends, state.takeIdleWaiters())
    }
    for end in ends { end(nil) }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once no observation is live and no pass is running (every consumer went away
  /// and every re-fetch ended). For tests that check nothing outlives them.
  func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = state.withLock { state -> Bool in
        if state.registrations.isEmpty, state.activePasses == 0 { return true }
        state.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }

  /// Returns once no pass is running or waiting to run (every dirty observation has been
  /// re-fetched). For tests that count the work one commit causes.
  func waitUntilSettled() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let settled = state.withLock { state -> Bool in
        if state.activePasses == 0 { return true }
        state.settleWaiters.append(continuation)
        return false
      }
      if settled { continuation.resume() }
    }
  }

  // MARK: Passes

  /// Starts one pass: straight on a free reader's queue when there is one (one hop, no
  /// task), else in a task that waits for a connection.
  private func startPass(on route: ReadRoute) {
    let started = route.detached { connection in
      if let connection {
        self.runPass(on: connection)
      } else {
        self.failPending(nil)  // the reader was closed: the database is closing
      }
      self.passEnded()
    }
    if started { return }
    Task {
      do {
        try await route.withConnection { connection in self.runPass(on: connection) }
      } catch {
        // No connection: whatever the pass would have claimed ends, normally when the
        // database is closing, else with the error.
        if (error as? PersistenceError)?.kind == .closed {
          self.failPending(nil)
        } else {
          self.failPending(error)
        }
      }
      self.passEnded()
    }
  }

  /// Claims the pending observations, re-fetches each on `connection`, then completes them.
  /// When commits landed meanwhile, the next pass runs right here, on the same connection
  /// (no hop to another reader), up to `passesPerHold` passes in a row; after that it goes
  /// through `startPass`, so a stream of commits never keeps one reader forever.
  private func runPass(on connection: Connection) {
    for held in 1...Self.passesPerHold {
      let batch = claim()
      if batch.isEmpty { return }
      var outcomes: [(id: UInt64, outcome: Outcome)] = []
      outcomes.reserveCapacity(batch.count)
      for claimed in batch {
        outcomes.append((claimed.id, claimed.refresh(connection, claimed.tables)))
      }
      connection.endSharedRead()
      if !complete(outcomes, continueHere: held < Self.passesPerHold) { return }
    }
  }

  /// Passes one reader runs back to back before handing the next one to the pool.
  static let passesPerHold = 8

  /// Takes every pending observation still registered: marks it running and clean.
  private func claim() -> [Claim] {
    state.withLock { state in
      state.passScheduled = false
      var batch: [Claim] = []
      batch.reserveCapacity(state.pending.count)
      for id in state.pending {
        guard var registration = state.registrations[id], registration.isDirty,
          !registration.isRunning
        else { continue }
        registration.isDirty = false
        registration.isRunning = true
        state.registrations[id] = registration
        batch.append(Claim(id: id, tables: registration.tables, refresh: registration.refresh))
      }
      state.pending.removeAll(keepingCapacity: true)
      return batch
    }
  }

  /// Records a pass's outcomes: widens regions, drops ended observations, re-queues those
  /// dirtied meanwhile, and starts the next pass if one is needed — or, with
  /// `continueHere`, returns `true` for the caller to run it on its connection (it counts
  /// as scheduled, so no commit starts another meanwhile).
  private func complete(
    _ outcomes: [(id: UInt64, outcome: Outcome)], continueHere: Bool
  ) -> Bool {
    let start = state.withLock { state -> NextPass in
      var landed = false
      for (id, outcome) in outcomes {
        guard state.registrations[id] != nil else { continue }
        switch outcome {
        case .current:
          break
        case .widened(let read):
          // A commit to a newly read table may have landed before the wider registration:
          // fetch again rather than deliver what this fetch saw.
          let old = state.registrations[id]!.tables
          let widened = old.union(read)
          state.unindex(id, tables: old)
          state.registrations[id]!.tables = widened
          state.index(id, tables: widened)
          state.registrations[id]!.isDirty = true
        case .ended:
          _ = state.remove(id)
          continue
        }
        state.registrations[id]!.isRunning = false
        if state.registrations[id]!.isDirty {
          state.pending.append(id)
          if case .current = outcome { landed = true }
        }
      }
      // Commits outpaced the re-fetches (one landed on an observation while it was being
      // re-fetched): a burst. Pace the next pass, so the burst's commits coalesce.
      if landed, burstInterval > .zero, let route = state.passToStart() {
        return .later(route)
      }
      if continueHere, !state.pending.isEmpty, !state.passScheduled, state.route != nil {
        state.passScheduled = true
        return .here
      }
      return state.passToStart().map(NextPass.now) ?? .none
    }
    switch start {
    case .now(let route):
      startPass(on: route)
    case .later(let route):
      // Real time on a dispatch queue; virtual time on the deterministic runtime.
      BackgroundWork.after(burstInterval) { self.startPass(on: route) }
    case .here:
      return true
    case .none:
      break
    }
    return false
  }

  /// What follows a pass.
  private enum NextPass {
    /// Nothing is dirty (or a pass is already scheduled).
    case none
    /// Run the next pass on the same connection, right away.
    case here
    /// Start the next pass on a free reader now.
    case now(ReadRoute)
    /// A burst: start the next pass on a free reader after `burstInterval`.
    case later(ReadRoute)
  }

  /// Ends the observations a pass could not run, because it got no connection: normally
  /// (`nil`) or with `error`.
  private func failPending(_ error: (any Error)?) {
    let batch = claim()
    let (ends, waiters) = state.withLock { state in
      (batch.compactMap { state.remove($0.id)?.end }, state.takeIdleWaiters())
    }
    for end in ends { end(error) }
    for waiter in waiters { waiter.resume() }
  }

  private func passEnded() {
    let waiters = state.withLock { state in
      state.activePasses -= 1
      var waiters = state.takeIdleWaiters()
      if state.activePasses == 0 {
        waiters += state.settleWaiters
        state.settleWaiters.removeAll()
      }
      return waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
