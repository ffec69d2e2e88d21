#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The durable queue of sync operations: enqueue with the local write it mirrors
/// (`DatabaseTransaction.enqueue`), then dequeue, deliver, and acknowledge or fail.
///
/// ```swift
/// for entry in try await database.outbox.dequeue(limit: 20) {
///   do {
///     try await api.send(entry.payload, idempotencyKey: entry.idempotencyKey)
///     try await database.outbox.acknowledge(entry)
///   } catch {
///     try await database.outbox.fail(entry, error: "\(error)")
///   }
/// }
/// ```
///
/// Delivery is at least once: an entry leaves the queue only when acknowledged. If the app
/// dies mid-delivery, the entry is due again at the next launch (leases are released on
/// open) or when its lease expires. With a server that honours idempotency keys, each
/// operation is applied exactly once. Entries of one record are delivered in order, one at
/// a time; entries of different records do not wait for each other.
///
/// > Important: One process should deliver a database's outbox (leases are released when a
/// > database is opened).
///
/// - Note: Isolation: a `Sendable` value; every call is one transaction on the database.
public struct Outbox: Sendable {
  let database: Database

  private var environment: DatabaseEnvironment { database.environment }

  /// Takes up to `limit` due entries, oldest first, and leases them for
  /// `OutboxPolicy.lease` so another dequeue does not return them meanwhile.
  ///
  /// - Complexity: O(d log n), d = due entries examined, n = queued entries.
  /// - Note: Isolation: one write transaction on the writer.
  public func dequeue(limit: Int = 16) async throws(PersistenceError) -> [OutboxEntry] {
    let environment = environment
    return try await database.write { (tx) throws(PersistenceError) in
      let now = environment.now()
      let rows = try tx.rows(OutboxSchema.dueQuery, [now.databaseValue, .integer(Int64(limit))])
      var entries: [OutboxEntry] = []
      for row in rows {
        var state = OutboxSchema.state(row)
        guard case .lease(let until) = state.lease(now: now, policy: environment.outboxPolicy)
        else { continue }
        let entry = OutboxSchema.entry(row)
        try tx.execute(
          "UPDATE weft_outbox SET leased_until = ?1 WHERE id = ?2",
          [until.databaseValue, .integer(entry.id)])
        entries.append(entry)
      }
      return entries
    }
  }

  /// Removes `entry`: the server applied it. Returns `false` when it was already gone.
  ///
  /// - Complexity: O(log n).
  @discardableResult
  public func acknowledge(_ entry: OutboxEntry) async throws(PersistenceError) -> Bool {
    try await acknowledge(id: entry.id)
  }

  /// Removes the entry `id`. Returns `false` when it was already gone.
  ///
  /// - Complexity: O(log n).
  @discardableResult
  public func acknowledge(id: Int64) async throws(PersistenceError) -> Bool {
    try await database.write { (tx) throws(PersistenceError) in
      try tx.execute("DELETE FROM weft_outbox WHERE id = ?1", [.integer(id)]) > 0
    }
  }

  /// Records a failed delivery of `entry`: schedules the next attempt with backoff, or
  /// dead-letters it after `OutboxPolicy.maximumAttempts` failures.
  ///
  /// - Throws: `PersistenceError.outboxEntryNotFound` when the entry is gone.
  /// - Complexity: O(log n).
  @discardableResult
  public func fail(
    _ entry: OutboxEntry, error: String
  ) async throws(PersistenceError) -> OutboxFailureOutcome {
    try await fail(id: entry.id, error: error)
  }

  /// Records a failed delivery of the entry `id`.
  ///
  /// - Throws: `PersistenceError.outboxEntryNotFound` when the entry is gone.
  /// - Complexity: O(log n).
  @discardableResult
  public func fail(
    id: Int64, error message: String
  ) async throws(PersistenceError) -> OutboxFailureOutcome {
    let environment = environment
    let path = database.path
    return try await database.write { (tx) throws(PersistenceError) in
      guard let row = try tx.rows("SELECT * FROM weft_outbox WHERE id = ?1", [.integer(id)]).first
      else { throw PersistenceError.outboxEntryNotFound(path: path, id: id) }
      var state = OutboxSchema.state(row)
      let now = environment.now()
      switch state.fail(now: now, random: environment.random(), policy: environment.outboxPolicy) {
      case .schedule(let attempts, let at):
        try tx.execute(
          "UPDATE weft_outbox SET attempts = ?1, next_attempt_at = ?2, leased_until = NULL, "
            + "last_error = ?3 WHERE id = ?4",
          [.integer(Int64(attempts)), at.databaseValue, .text(message), .integer(id)])
        return .retryScheduled(attempts: attempts, at: at)
      case .deadLetter(let attempts, let at):
        try tx.execute(
          "UPDATE weft_outbox SET attempts = ?1, dead_at = ?2, leased_until = NULL, "
            + "last_error = ?3 WHERE id = ?4",
          [.integer(Int64(attempts)), at.databaseValue, .text(message), .integer(id)])
        return .deadLettered(attempts: attempts)
      default:
        return .deadLettered(attempts: state.attempts)
      }
    }
  }

  /// Entries still to deliver (leased ones included), oldest first.
  ///
  /// - Complexity: O(k), k = entries.
  public func pending() async throws(PersistenceError) -> [OutboxEntry] {
    try await database.read { (db) throws(PersistenceError) in
      try db.rows("SELECT * FROM weft_outbox WHERE dead_at IS NULL ORDER BY id")
        .map(OutboxSchema.entry)
    }
  }

  /// How many entries are still to deliver.
  ///
  /// - Complexity: O(k) (an index range count).
  public func pendingCount() async throws(PersistenceError) -> Int {
    try await database.read { (db) throws(PersistenceError) in
      guard
        case .integer(let count) = try db.scalar(
          "SELECT count(*) FROM weft_outbox WHERE dead_at IS NULL")
      else { return 0 }
      return Int(count)
    }
  }

  /// When the next entry becomes due (now or in the past if one is due), or `nil` when
  /// nothing is pending. A sync engine sleeps until then.
  ///
  /// - Complexity: O(log n).
  public func nextAttemptDate() async throws(PersistenceError) -> Date? {
    try await database.read { (db) throws(PersistenceError) in
      let value = try db.scalar(
        "SELECT min(max(next_attempt_at, coalesce(leased_until, 0))) FROM weft_outbox "
          + "WHERE dead_at IS NULL")
      switch value {
      case .real(let seconds): return Date(timeIntervalSince1970: seconds)
      case .integer(let seconds): return Date(timeIntervalSince1970: Double(seconds))
      default: return nil
      }
    }
  }

  /// Entries that failed too often, oldest first.
  ///
  /// - Complexity: O(k), k = dead letters.
  public func deadLetters() async throws(PersistenceError) -> [OutboxEntry] {
    try await database.read { (db) throws(PersistenceError) in
      try db.rows("SELECT * FROM weft_outbox WHERE dead_at IS NOT NULL ORDER BY id")
        .map(OutboxSchema.entry)
    }
  }

  /// Puts a dead letter back in the queue, due now, with its attempts reset.
  ///
  /// - Throws: `PersistenceError.outboxEntryNotFound` when the entry is gone.
  /// - Complexity: O(log n).
  public func requeue(_ entry: OutboxEntry) async throws(PersistenceError) {
    let environment = environment
    let path = database.path
    try await database.write { (tx) throws(PersistenceError) in
      guard
        let row = try tx.rows("SELECT * FROM weft_outbox WHERE id = ?1", [.integer(entry.id)])
          .first
      else { throw PersistenceError.outboxEntryNotFound(path: path, id: entry.id) }
      var state = OutboxSchema.state(row)
      guard case .revive(let at) = state.requeue(now: environment.now()) else { return }
      try tx.execute(
        "UPDATE weft_outbox SET attempts = 0, dead_at = NULL, next_attempt_at = ?1 WHERE id = ?2",
        [at.databaseValue, .integer(entry.id)])
    }
  }

  /// Deletes every dead letter; returns how many.
  ///
  /// - Complexity: O(d log n), d = dead letters.
  @discardableResult
  public func purgeDeadLetters() async throws(PersistenceError) -> Int {
    try await database.write { (tx) throws(PersistenceError) in
      try tx.execute("DELETE FROM weft_outbox WHERE dead_at IS NOT NULL")
    }
  }
}

extension Database {
  /// The database's outbox of sync operations.
  public var outbox: Outbox { Outbox(database: self) }
}
