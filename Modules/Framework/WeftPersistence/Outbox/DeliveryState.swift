#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The delivery life of one outbox entry, as a pure state machine: events in, actions out.
/// The `Outbox` is the thin owner that carries the actions out in SQL.
///
/// ```
/// pending ──lease(now ≥ next)──▶ leased(until) ──acknowledge──▶ (deleted)
///    ▲                              │  │
///    │        fail, attempts < max  │  └─ lease expires (app killed) ─▶ due again
///    └──────── schedule(next) ◀─────┘
///                                   │ fail, attempts = max
///                                   ▼
///                              deadLettered ──requeue──▶ pending (attempts 0)
/// ```
///
/// - Complexity: every event is O(1).
/// - Note: Isolation: a value; the owner runs it inside a write transaction.
struct DeliveryState: Equatable {
  enum Phase: Equatable {
    case pending
    case leased(until: Date)
    case deadLettered(at: Date)
  }

  enum Action: Equatable {
    /// Nothing to do.
    case none
    /// Reserve the entry for its deliverer until `until`.
    case lease(until: Date)
    /// Remove the entry: it was delivered.
    case delete
    /// Record the failure; retry at `at`.
    case schedule(attempts: Int, at: Date)
    /// Record the failure and take the entry out of delivery.
    case deadLetter(attempts: Int, at: Date)
    /// Put a dead letter back in the queue, due at `at`.
    case revive(at: Date)
  }

  var phase: Phase
  var attempts: Int
  var nextAttemptAt: Date

  /// Whether a dequeue at `now` may take the entry. The dequeue query's `WHERE` clause is
  /// the same rule in SQL (`OutboxSchema.dueCondition`).
  func isDue(at now: Date) -> Bool {
    switch phase {
    case .pending: nextAttemptAt <= now
    case .leased(let until): until <= now && nextAttemptAt <= now
    case .deadLettered: false
    }
  }

  /// A deliverer takes the entry at `now`.
  mutating func lease(now: Date, policy: OutboxPolicy) -> Action {
    guard isDue(at: now) else { return .none }
    let until = now.addingTimeInterval(policy.lease.seconds)
    phase = .leased(until: until)
    return .lease(until: until)
  }

  /// The server accepted the operation.
  mutating func acknowledge() -> Action { .delete }

  /// A delivery attempt failed at `now`; `random` in `0..<1` drives the jitter.
  mutating func fail(now: Date, random: Double, policy: OutboxPolicy) -> Action {
    if case .deadLettered = phase { return .none }
    attempts += 1
    if attempts >= policy.maximumAttempts {
      phase = .deadLettered(at: now)
      return .deadLetter(attempts: attempts, at: now)
    }
    let delay = policy.delay(afterFailures: attempts, random: random)
    nextAttemptAt = now.addingTimeInterval(delay.seconds)
    phase = .pending
    return .schedule(attempts: attempts, at: nextAttemptAt)
  }

  /// Puts a dead letter back in the queue, with its attempts reset.
  mutating func requeue(now: Date) -> Action {
    guard case .deadLettered = phase else { return .none }
    phase = .pending
    attempts = 0
    nextAttemptAt = now
    return .revive(at: now)
  }
}
