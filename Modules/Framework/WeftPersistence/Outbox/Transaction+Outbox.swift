#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DatabaseTransaction {
  /// Queues a sync operation for `record` in this transaction, so the record and its
  /// operation are saved together or not at all.
  ///
  /// ```swift
  /// try await database.write { tx in
  ///   try tx.save(metric)
  ///   try tx.enqueue(.create, metric)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - operation: `.create` or `.update` (use `enqueueDeletion` for deletes).
  ///   - record: stored as JSON in the entry's payload.
  ///   - idempotencyKey: unique per operation; a new UUID when `nil`.
  /// - Returns: the entry, due at once.
  /// - Throws: `PersistenceError.constraintViolation` on `weft_outbox` when the key was used.
  /// - Complexity: O(p + log n), p = payload size, n = queued entries.
  @discardableResult
  public func enqueue<R: PersistableRecord>(
    _ operation: OutboxOperation, _ record: R, idempotencyKey: String? = nil
  ) throws(PersistenceError) -> OutboxEntry {
    try enqueue(
      operation, modelType: R.tableName, recordID: recordIDText(record.id),
      payload: try payload(record, table: R.tableName), idempotencyKey: idempotencyKey)
  }

  /// Queues the deletion of the record of `type` with `id` (payload: the id as JSON).
  ///
  /// - Complexity: O(log n).
  @discardableResult
  public func enqueueDeletion<R: PersistableRecord>(
    of type: R.Type, id: R.ID, idempotencyKey: String? = nil
  ) throws(PersistenceError) -> OutboxEntry {
    try enqueue(
      .delete, modelType: R.tableName, recordID: recordIDText(id),
      payload: try payload(id, table: R.tableName), idempotencyKey: idempotencyKey)
  }

  /// Queues an operation described field by field (for payloads that are not records).
  ///
  /// - Complexity: O(p + log n).
  @discardableResult
  public func enqueue(
    _ operation: OutboxOperation, modelType: String, recordID: String, payload: Data,
    idempotencyKey: String? = nil
  ) throws(PersistenceError) -> OutboxEntry {
    let key = idempotencyKey ?? UUID().uuidString
    let now = environment.now()
    try connection.execute(
      "INSERT INTO weft_outbox (idempotency_key, operation, model_type, record_id, payload, "
        + "attempts, next_attempt_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, ?6)",
      [
        .text(key), .text(operation.rawValue), .text(modelType), .text(recordID),
        .blob([UInt8](payload)), now.databaseValue,
      ], table: OutboxSchema.table, id: key)
    return OutboxEntry(
      id: connection.lastInsertedRowID, idempotencyKey: key, operation: operation,
      modelType: modelType, recordID: recordID, payload: payload, attempts: 0,
      nextAttemptAt: now, lastError: nil, createdAt: now, deadLetteredAt: nil)
  }

  private func payload<T: Encodable>(_ value: T, table: String) throws(PersistenceError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      return try encoder.encode(value)
    } catch {
      throw PersistenceError(encoding: error, table: table)
    }
  }
}
