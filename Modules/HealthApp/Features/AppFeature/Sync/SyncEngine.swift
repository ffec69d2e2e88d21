import Foundation
import HealthDomain
import WeftCore
import WeftNetworking
import WeftPersistence

/// Drains the WeftPersistence outbox through the HTTP client whenever it can: the network
/// capability is available, a user is signed in, and offline mode is off.
///
/// A pass dequeues due entries in batches, sends each as its `HealthSyncOperation` (a `PUT`
/// or `DELETE` carrying the entry's idempotency key, so the server applies it once however
/// often it is replayed), acknowledges what was delivered and fails the rest (the outbox
/// schedules a backoff, and dead-letters an entry after too many attempts). Progress goes to
/// `AppState.syncStatus`; counts to `OutboxClient`.
///
/// Passes are requested — by the app after a form saves, when the network comes back, when a
/// user signs in, when offline mode ends, and by a timer at the outbox's next attempt date —
/// and run one at a time, one per request, on one loop task.
///
/// ```
/// requestPass ─▶ [loop] refresh counts ─▶ can sync? ─▶ dequeue ─▶ send ─▶ ack / fail ─▶ …
///                                                                    └▶ timer at next attempt
/// ```
///
/// - Complexity: O(e) requests per pass, e = due entries; one write per entry.
/// - Note: Isolation: `Sendable`; the loop runs in its own task, the backoff timer in
///   another.
/// - Note: Allocations: one task for the engine's lifetime, one per timer.
final class SyncEngine: Sendable {
  struct Dependencies: Sendable {
    var database: Database
    var client: HTTPClient
    var capabilities: CapabilityManager
    var appState: AppStateClient
    var outbox: OutboxClient
    var clock: any Clock<Duration>
    var now: @Sendable () -> Date
    var batchSize = 25
  }

  private let dependencies: Dependencies
  private let books: SyncBooks
  private let loop: Task<Void, Never>

  init(_ dependencies: Dependencies) {
    self.dependencies = dependencies
    let (requests, continuation) = AsyncStream.makeStream(of: Void.self)
    let books = SyncBooks(requests: continuation)
    self.books = books
    loop = Task {
      for await _ in requests {
        while books.passStarts() {
          await Self.pass(dependencies, books: books)
          if books.passFinished() { break }
        }
      }
    }
  }

  /// Requests a pass (queued behind the one running, never coalesced).
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: any.
  func requestPass() { books.request() }

  /// Stops the engine: cancels the timer and the loop, and returns once
  /// the loop has stopped (a pass in progress is cancelled and finishes first).
  func shutDown() async {
    books.shutDown()
    loop.cancel()
    await loop.value
  }

  // MARK: The pass

  private enum Delivery {
    case delivered
    case failed(String)
    case stop(String)
    /// The outbox could not record the outcome (a database error); the entry stays queued.
    case unrecorded(String)
  }

  /// What one pass did and hit.
  private struct Outcome {
    var delivered = 0
    /// The last delivery error of the pass.
    var error: String?
    /// A database error that ended the pass (the outbox kept every entry).
    var databaseError: String?
    var stopped = false

    /// The error to keep in the history (`OutboxState.lastFailure`).
    var failure: String? { databaseError ?? error }
  }

  private static func pass(_ dependencies: Dependencies, books: SyncBooks) async {
    books.cancelTimer()
    let outbox = dependencies.database.outbox
    let before: OutboxSnapshot
    do {
      before = try await refreshCounts(dependencies)
    } catch {
      var outcome = Outcome()
      outcome.databaseError = Self.databaseMessage("the outbox could not be counted", error)
      await finish(dependencies, outcome, after: nil)
      return
    }
    guard await canSync(dependencies), before.pending > 0 else {
      await showPresent(dependencies, before)
      return
    }
    let total = before.pending
    await dependencies.appState.setSyncStatus(.syncing(progress: 0))
    var outcome = Outcome()
    var processed = 0
    passes: while true {
      let batch: [OutboxEntry]
      do {
        batch = try await outbox.dequeue(limit: dependencies.batchSize)
      } catch {
        outcome.databaseError = Self.databaseMessage("the outbox could not be read", error)
        break passes
      }
      if batch.isEmpty { break passes }
      for entry in batch {
        switch await deliver(entry, dependencies) {
        case .delivered:
          outcome.delivered += 1
        case .failed(let message):
          outcome.error = message
        case .stop(let message):
          outcome.error = message
          outcome.stopped = true
        case .unrecorded(let message):
          outcome.databaseError = message
        }
        processed += 1
        let progress = min(1, Double(processed) / Double(max(total, processed)))
        await dependencies.appState.setSyncStatus(.syncing(progress: progress))
        if outcome.stopped || outcome.databaseError != nil { break passes }
      }
    }
    var after: OutboxSnapshot?
    do {
      after = try await refreshCounts(dependencies)
    } catch {
      outcome.databaseError =
        outcome.databaseError ?? Self.databaseMessage("the outbox could not be counted", error)
    }
    if !outcome.stopped, outcome.databaseError == nil {
      do {
        try await scheduleRetry(dependencies, books: books)
      } catch {
        outcome.databaseError = Self.databaseMessage(
          "the next retry could not be scheduled (changes wait for the next sync request)", error)
      }
    }
    await finish(dependencies, outcome, after: after)
  }

  /// Commits what a pass found: its counts, and a status and `lastError` that describe the
  /// present — `failed` after a database error or while an entry that failed is still in the
  /// outbox, otherwise `completed` with `lastError` cleared.
  private static func finish(
    _ dependencies: Dependencies, _ outcome: Outcome, after: OutboxSnapshot?
  ) async {
    let present: String?
    if let databaseError = outcome.databaseError {
      present = databaseError
    } else if let after, after.hasFailedEntries {
      present = outcome.error ?? dependencies.outbox.state.lastError ?? after.latestError
    } else {
      present = nil
    }
    let now = dependencies.now()
    await dependencies.outbox.passFinished(
      delivered: outcome.delivered, lastError: present,
      failure: outcome.failure.map { SyncFailure(message: $0, date: now) })
    await dependencies.appState.setSyncStatus(
      present.map { .failed(message: $0) } ?? .completed(now))
  }

  /// After a count that did not lead to deliveries: when nothing in the outbox has failed,
  /// nothing is wrong now — `lastError` is cleared and a `failed` status becomes `idle`.
  private static func showPresent(_ dependencies: Dependencies, _ snapshot: OutboxSnapshot) async {
    guard !snapshot.hasFailedEntries else { return }
    await dependencies.outbox.clearLastError()
    if case .failed = dependencies.appState.state.syncStatus {
      await dependencies.appState.setSyncStatus(.idle)
    }
  }

  private static func databaseMessage(_ what: String, _ error: any Error) -> String {
    "database: \(what): \(error); nothing was lost, every change stays queued"
  }

  private static func deliver(_ entry: OutboxEntry, _ dependencies: Dependencies) async -> Delivery
  {
    let outbox = dependencies.database.outbox
    let operation: HealthSyncOperation
    do {
      operation = try HealthSyncOperation(entry: entry)
    } catch {
      // An entry that cannot be decoded never will be: fail it until it is dead-lettered.
      do {
        while case .retryScheduled = try await outbox.fail(entry, error: error.description) {}
      } catch let recording {
        return .unrecorded(
          databaseMessage("an undecodable entry (\(error)) could not be set aside", recording))
      }
      return .failed(error.description)
    }
    do throws(NetworkError) {
      try await operation.send(through: dependencies.client)
    } catch {
      do {
        try await outbox.fail(entry, error: error.description)
      } catch let recording {
        return .unrecorded(
          databaseMessage("a failed delivery (\(error)) could not be recorded", recording))
      }
      switch error.kind {
      case .offline: return .stop("offline: changes stay queued until the network is back")
      case .authentication: return .stop("signed out: changes stay queued until you sign in")
      case .cancelled: return .stop("cancelled")
      default: return .failed(error.description)
      }
    }
    do {
      try await outbox.acknowledge(entry)
    } catch {
      return .unrecorded(
        databaseMessage(
          "a delivered entry could not be removed (it is sent again; the server applies it once)",
          error))
    }
    return .delivered
  }

  private static func canSync(_ dependencies: Dependencies) async -> Bool {
    let app = dependencies.appState.state
    guard app.isAuthenticated, !app.featureFlags.isOfflineMode else { return false }
    return await dependencies.capabilities.validate(NetworkCapability.self)
  }

  /// Counts the outbox into `OutboxClient` and returns what it found.
  ///
  /// - Throws: the database's error; the counts shown are left as they were.
  @discardableResult
  static func refreshCounts(_ dependencies: Dependencies) async throws -> OutboxSnapshot {
    let outbox = dependencies.database.outbox
    let pending = try await outbox.pending()
    let dead = try await outbox.deadLetters()
    await dependencies.outbox.setCounts(pending: pending.count, deadLetters: dead.count)
    return OutboxSnapshot(pending: pending, deadLetters: dead)
  }

  /// Counts the outbox after a change made outside a pass (a logout deleting it) and clears
  /// a failure nothing in the outbox explains any more.
  ///
  /// - Throws: the database's error.
  static func recount(_ dependencies: Dependencies) async throws {
    await showPresent(dependencies, try await refreshCounts(dependencies))
  }

  private static func scheduleRetry(_ dependencies: Dependencies, books: SyncBooks) async throws {
    guard dependencies.outbox.state.pending > 0,
      let next = try await dependencies.database.outbox.nextAttemptDate()
    else { return }
    let delay = next.timeIntervalSince(dependencies.now())
    guard delay > 0 else { return }
    books.startTimer(after: .milliseconds(Int64((delay * 1000).rounded(.up))), dependencies.clock)
  }
}

/// The outbox as one count found it.
struct OutboxSnapshot: Sendable {
  var pending: Int
  var deadLetters: Int
  /// Whether an entry whose delivery failed is still there (retrying or dead-lettered).
  var hasFailedEntries: Bool
  /// The error of the most recent failure among them, as far as the rows tell (latest
  /// dead-letter date or next attempt date).
  var latestError: String?

  init(pending: [OutboxEntry], deadLetters: [OutboxEntry]) {
    self.pending = pending.count
    self.deadLetters = deadLetters.count
    let failed = (pending + deadLetters).filter { $0.lastError != nil }
    hasFailedEntries = !failed.isEmpty
    latestError =
      failed.max {
        ($0.deadLetteredAt ?? $0.nextAttemptAt) < ($1.deadLetteredAt ?? $1.nextAttemptAt)
      }?.lastError
  }
}

/// The sync engine's queue of requested passes (one pass per request, never coalesced) and
/// its retry timer.
final class SyncBooks: Sendable {
  struct State {
    var pending = 0
    var timer: Task<Void, Never>?
    var isShutDown = false
  }

  private let state = Locked(State())
  private let requests: AsyncStream<Void>.Continuation

  init(requests: AsyncStream<Void>.Continuation) {
    self.requests = requests
  }

  /// Queues one pass; the first wakes the loop.
  ///
  /// Passes are not coalesced: each request runs exactly one, so how many passes (and SQL
  /// statements, and commits) a step causes does not depend on when the loop wakes.
  func request() {
    let begins = state.withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      state.pending += 1
      return state.pending == 1
    }
    guard begins else { return }
    requests.yield()
  }

  /// Whether a pass should run now (false once shut down).
  func passStarts() -> Bool {
    state.withLock { !$0.isShutDown && $0.pending > 0 }
  }

  /// After a pass: true (the engine idle) when no other pass is queued, or once shut down.
  func passFinished() -> Bool {
    state.withLock { state -> Bool in
      if state.isShutDown { return true }
      state.pending -= 1
      return state.pending == 0
    }
  }

  func startTimer(after delay: Duration, _ clock: any Clock<Duration>) {
    let started = state.withLock { !$0.isShutDown }
    guard started else { return }
    let timer = Task { [weak self] in
      do {
        try await clock.sleep(for: delay)
        self?.request()
      } catch {}
    }
    let previous = state.withLock { state -> Task<Void, Never>? in
      defer { state.timer = timer }
      return state.timer
    }
    previous?.cancel()
  }

  func cancelTimer() {
    state.withLock { state -> Task<Void, Never>? in
      defer { state.timer = nil }
      return state.timer
    }?.cancel()
  }

  func shutDown() {
    let timer = state.withLock { state -> Task<Void, Never>? in
      defer {
        state.timer = nil
        state.pending = 0
        state.isShutDown = true
      }
      return state.timer
    }
    timer?.cancel()
    requests.finish()
  }
}
