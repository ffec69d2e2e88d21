#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a queued sync operation does to the server's copy of a record.
///
/// - Note: Isolation: a `Sendable` value.
public enum OutboxOperation: String, Sendable, Codable, CaseIterable {
  /// The record was created locally.
  case create
  /// The record was changed locally.
  case update
  /// The record was deleted locally.
  case delete
}

/// One queued sync operation, as stored in the outbox.
///
/// Send `idempotencyKey` with the request (for example as an `Idempotency-Key` header): a
/// server that honours it applies a replayed operation once, which turns the outbox's
/// at-least-once delivery into exactly-once application.
///
/// - Note: Isolation: a `Sendable` value.
public struct OutboxEntry: Sendable, Equatable, Identifiable {
  /// The entry's number; entries of one record are delivered in this order.
  public let id: Int64
  /// Unique per operation; the same across every retry and replay.
  public let idempotencyKey: String
  /// Create, update or delete.
  public let operation: OutboxOperation
  /// The record's table name (`PersistableRecord.tableName`).
  public let modelType: String
  /// The record's id, as text.
  public let recordID: String
  /// The record as JSON (its id alone for a delete).
  public let payload: Data
  /// Failed delivery attempts so far.
  public let attempts: Int
  /// When the entry may next be delivered.
  public let nextAttemptAt: Date
  /// The error of the last failed attempt.
  public let lastError: String?
  /// When it was enqueued.
  public let createdAt: Date
  /// When it was dead-lettered (`nil` while it is still being retried).
  public let deadLetteredAt: Date?

  /// Decodes the payload as `type` (a record for create/update, its id for a delete).
  ///
  /// - Throws: `PersistenceError` of kind `decodingFailed` (table `weft_outbox`, this
  ///   entry's id) when the payload does not decode as `type`.
  /// - Complexity: O(p), p = payload size.
  public func decodePayload<T: Decodable>(as type: T.Type) throws(PersistenceError) -> T {
    do {
      return try JSONDecoder().decode(type, from: payload)
    } catch {
      throw PersistenceError(decoding: error, table: OutboxSchema.table, id: String(id))
    }
  }
}

/// What `Outbox.fail` decided.
///
/// - Note: Isolation: a `Sendable` value.
public enum OutboxFailureOutcome: Sendable, Equatable {
  /// The entry will be retried at `at` (after `attempts` failures).
  case retryScheduled(attempts: Int, at: Date)
  /// The entry failed `attempts` times, the policy's maximum: it stays in the outbox as a
  /// dead letter, out of delivery, until requeued or purged.
  case deadLettered(attempts: Int)
}
