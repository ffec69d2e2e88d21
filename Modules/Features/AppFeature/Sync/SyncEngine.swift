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
/// - Note: Isolation: `Sendable`; the loop runs in its own task. Each request begins a piece
///   of work (`sync.pass`) ended when its pass finishes; the backoff timer is one too
///   (`sync.timer`), so a settler drives retries to completion.
/// - Note: Allocations: one task for the engine's lifetime, one per timer.
final class SyncEngine: Sendable {
  struct Dependencies: Sendable {
    var database: Database
    var client: HTTPClient
    var capabilities: CapabilityManager
    var appState: AppStateClient
    var outbox: OutboxClient
    var tracker: WorkTracker
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
    let books = SyncBooks(tracker: dependencies.tracker, requests: continuation)
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
  /// - Note: Isolation: any; begins `sync.pass` before returning.
  func requestPass() { books.request() }

  /// Stops the engine: cancels the timer and the loop, ends their work, and returns once
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
  }

  private static func pass(_ dependencies: Dependencies, books: SyncBooks) async {
    books.cancelTimer()
    let outbox = dependencies.database.outbox
    await refreshCounts(dependencies)
    guard await canSync(dependencies) else { return }
    let total = dependencies.outbox.state.pending
    guard total > 0 else { return }
    await dependencies.appState.setSyncStatus(.syncing(progress: 0))
    var processed = 0
    var delivered = 0
    var lastError: String?
    var stopped = false
    passes: while let batch = try? await outbox.dequeue(limit: dependencies.batchSize),
      !batch.isEmpty
    {
      for entry in batch {
        switch await deliver(entry, dependencies) {
        case .delivered:
          delivered += 1
        case .failed(let message):
          lastError = message
        case .stop(let message):
          lastError = message
          stopped = true
        }
        processed += 1
        let progress = min(1, Double(processed) / Double(max(total, processed)))
        await dependencies.appState.setSyncStatus(.syncing(progress: progress))
        if stopped { break passes }
      }
    }
    await refreshCounts(dependencies)
    await dependencies.outbox.passFinished(delivered: delivered, error: lastError)
    let status: SyncStatus =
      lastError.map { .failed(message: $0) } ?? .completed(dependencies.now())
    await dependencies.appState.setSyncStatus(status)
    if !stopped { await scheduleRetry(dependencies, books: books) }
  }

  private static func deliver(_ entry: OutboxEntry, _ dependencies: Dependencies) async -> Delivery
  {
    let outbox = dependencies.database.outbox
    let operation: HealthSyncOperation
    do {
      operation = try HealthSyncOperation(entry: entry)
    } catch {
      while case .retryScheduled = try? await outbox.fail(entry, error: error.description) {}
      return .failed(error.description)
    }
    do throws(NetworkError) {
      try await operation.send(through: dependencies.client)
    } catch {
      _ = try? await outbox.fail(entry, error: error.description)
      switch error.kind {
      case .offline: return .stop("offline: changes stay queued until the network is back")
      case .authentication: return .stop("signed out: changes stay queued until you sign in")
      case .cancelled: return .stop("cancelled")
      default: return .failed(error.description)
      }
    }
    _ = try? await outbox.acknowledge(entry)
    return .delivered
  }

  private static func canSync(_ dependencies: Dependencies) async -> Bool {
    let app = dependencies.appState.state
    guard app.isAuthenticated, !app.featureFlags.isOfflineMode else { return false }
    return await dependencies.capabilities.validate(NetworkCapability.self)
  }

  static func refreshCounts(_ dependencies: Dependencies) async {
    let outbox = dependencies.database.outbox
    let pending = (try? await outbox.pendingCount()) ?? 0
    let dead = (try? await outbox.deadLetters().count) ?? 0
    await dependencies.outbox.setCounts(pending: pending, deadLetters: dead)
  }

  private static func scheduleRetry(_ dependencies: Dependencies, books: SyncBooks) async {
    guard dependencies.outbox.state.pending > 0,
      let next = try? await dependencies.database.outbox.nextAttemptDate()
    else { return }
    let delay = next.timeIntervalSince(dependencies.now())
    guard delay > 0 else { return }
    books.startTimer(after: .milliseconds(Int64((delay * 1000).rounded(.up))), dependencies.clock)
  }
}

/// The sync engine's announced work: `sync.pass` while the engine is busy (passes queued or
/// running, however many), and the retry timer.
///
/// Busy is one piece of work, not one per request: a request that arrives while a pass runs
/// waits behind it without running or sleeping, so counting it separately would make the
/// engine look busy-but-not-waiting while the pass sleeps on the clock.
final class SyncBooks: Sendable {
  struct State {
    var pending = 0
    var timer: Task<Void, Never>?
    var isShutDown = false
  }

  private let state = Locked(State())
  private let tracker: WorkTracker
  private let requests: AsyncStream<Void>.Continuation

  init(tracker: WorkTracker, requests: AsyncStream<Void>.Continuation) {
    self.tracker = tracker
    self.requests = requests
  }

  /// Queues one pass; the first makes the engine busy (one piece of work).
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
    tracker.begin("sync.pass")
    requests.yield()
  }

  /// Whether a pass should run now (false once shut down).
  func passStarts() -> Bool {
    state.withLock { !$0.isShutDown && $0.pending > 0 }
  }

  /// After a pass: true (and the engine idle, its work ended) when no other pass is queued.
  func passFinished() -> Bool {
    let ends = state.withLock { state -> Bool? in
      if state.isShutDown { return false }
      state.pending -= 1
      return state.pending == 0 ? true : nil
    }
    guard let ends else { return false }
    if ends { tracker.end("sync.pass") }
    return true
  }

  func startTimer(after delay: Duration, _ clock: any Clock<Duration>) {
    let tracker = self.tracker
    let started = state.withLock { !$0.isShutDown }
    guard started else { return }
    tracker.begin("sync.timer")
    let timer = Task { [weak self] in
      do {
        try await clock.sleep(for: delay)
        self?.request()
      } catch {}
      tracker.end("sync.timer")
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
    let (timer, busy) = state.withLock { state -> (Task<Void, Never>?, Bool) in
      defer {
        state.timer = nil
        state.pending = 0
        state.isShutDown = true
      }
      return (state.timer, state.pending > 0)
    }
    timer?.cancel()
    requests.finish()
    if busy { tracker.end("sync.pass") }
  }
}
