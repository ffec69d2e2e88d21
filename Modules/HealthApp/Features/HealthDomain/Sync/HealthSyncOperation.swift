import Foundation
import WeftNetworking
import WeftPersistence

/// One queued change to a metric, read back from the outbox, and how to send it.
///
/// ```swift
/// for entry in try await database.outbox.dequeue(limit: 20) {
///   do {
///     let operation = try HealthSyncOperation(entry: entry)
///     try await operation.send(through: client)
///     try await database.outbox.acknowledge(entry)
///   } catch {
///     try await database.outbox.fail(entry, error: "\(error)")
///   }
/// }
/// ```
///
/// The payload format is the one `DatabaseTransaction.enqueue` writes: the metric as JSON
/// (`HealthSyncPayload`) for a create or update, the id as a JSON string for a delete. A
/// create and an update both become `PUT /metrics/{id}` (an upsert), carrying the entry's
/// idempotency key.
///
/// - Complexity: decoding is O(p), p = payload size.
/// - Note: Isolation: a `Sendable` value; any isolation.
/// - Note: Allocations: the decoded metric.
public struct HealthSyncOperation: Sendable, Equatable {
  /// What the operation does to the backend's copy.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public enum Change: Sendable, Equatable {
    /// Create or replace the metric.
    case upsert(HealthMetric)
    /// Delete the metric with this id.
    case delete(UUID)
  }

  /// The change.
  public var change: Change
  /// The outbox's operation (create, update or delete).
  public var operation: OutboxOperation
  /// The key the backend deduplicates on: the same for every retry of this entry.
  public var idempotencyKey: String

  /// Makes an operation.
  ///
  /// - Complexity: O(1).
  public init(change: Change, operation: OutboxOperation, idempotencyKey: String) {
    self.change = change
    self.operation = operation
    self.idempotencyKey = idempotencyKey
  }

  /// Reads the operation an outbox entry holds.
  ///
  /// - Throws: `HealthSyncError.unknownModelType` when the entry is not a health metric's,
  ///   `.undecodablePayload` when its payload is not the format `enqueue` writes.
  /// - Complexity: O(p), p = payload size.
  public init(entry: OutboxEntry) throws(HealthSyncError) {
    guard entry.modelType == HealthMetric.tableName else {
      throw .unknownModelType(entry.modelType, entryID: entry.id)
    }
    do {
      switch entry.operation {
      case .create, .update:
        change = .upsert(try HealthSyncPayload.decodeMetric(entry.payload))
      case .delete:
        change = .delete(try HealthSyncPayload.decodeID(entry.payload))
      }
    } catch {
      throw .undecodablePayload(entryID: entry.id, detail: "\(error)")
    }
    operation = entry.operation
    idempotencyKey = entry.idempotencyKey
  }

  /// The metric's id.
  public var metricID: UUID {
    switch change {
    case .upsert(let metric): metric.id
    case .delete(let id): id
    }
  }

  /// The endpoint's name (`PUT /metrics/{id}` or `DELETE /metrics/{id}`), for progress and
  /// logs.
  public var endpointName: String {
    switch change {
    case .upsert: "PUT \(HealthAPI.Path.metric)"
    case .delete: "DELETE \(HealthAPI.Path.metric)"
    }
  }

  /// Sends the operation: `PUT /metrics/{id}` or `DELETE /metrics/{id}` with the
  /// idempotency key.
  ///
  /// - Throws: what `client.send` throws.
  /// - Complexity: one request (plus the client's retries).
  /// - Note: Isolation: the caller's task.
  public func send(through client: HTTPClient) async throws(NetworkError) {
    switch change {
    case .upsert(let metric):
      _ = try await client.send(HealthAPI.upsertMetric(metric, idempotencyKey: idempotencyKey))
    case .delete(let id):
      _ = try await client.send(HealthAPI.deleteMetric(id: id, idempotencyKey: idempotencyKey))
    }
  }
}

/// Why an outbox entry could not be read as a health sync operation.
///
/// - Note: Isolation: a `Sendable` value.
public enum HealthSyncError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The entry belongs to another table.
  case unknownModelType(String, entryID: Int64)
  /// The entry's payload does not decode.
  case undecodablePayload(entryID: Int64, detail: String)

  public var description: String {
    switch self {
    case .unknownModelType(let type, let id):
      "outbox entry \(id) is for \"\(type)\", not \"\(HealthMetric.tableName)\": deliver it "
        + "with the sync code of the feature that enqueued it"
    case .undecodablePayload(let id, let detail):
      "outbox entry \(id) has a payload that is not a health metric (\(detail)): it was not "
        + "written by DatabaseTransaction.saveForSync; dead-letter it"
    }
  }
}

/// The outbox payload format of health metrics: the record as JSON with sorted keys, exactly
/// as `DatabaseTransaction.enqueue` writes it.
///
/// - Complexity: O(p), p = payload size.
/// - Note: Isolation: stateless; any isolation.
public enum HealthSyncPayload {
  /// The payload of a create or update of `metric`.
  ///
  /// - Complexity: O(f), f = the metric's fields.
  public static func encode(_ metric: HealthMetric) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(metric)
  }

  /// The metric in a create or update payload.
  ///
  /// - Complexity: O(p), p = payload size.
  public static func decodeMetric(_ payload: Data) throws -> HealthMetric {
    try JSONDecoder().decode(HealthMetric.self, from: payload)
  }

  /// The id in a delete payload.
  ///
  /// - Complexity: O(p), p = payload size.
  public static func decodeID(_ payload: Data) throws -> UUID {
    try JSONDecoder().decode(UUID.self, from: payload)
  }
}

extension DatabaseTransaction {
  /// Saves `metric` and queues its sync operation in this transaction: both are written or
  /// neither is.
  ///
  /// ```swift
  /// try await database.write { tx in try tx.saveForSync(metric, operation: .create) }
  /// ```
  ///
  /// - Parameters:
  ///   - operation: `.create` or `.update`.
  ///   - idempotencyKey: a new UUID when `nil`.
  /// - Returns: the outbox entry.
  /// - Throws: `PersistenceError` from the save or the enqueue (the transaction then rolls
  ///   back).
  /// - Complexity: O(f + log n) for the save plus O(p + log m) for the enqueue.
  @discardableResult
  public func saveForSync(
    _ metric: HealthMetric, operation: OutboxOperation = .create, idempotencyKey: String? = nil
  ) throws -> OutboxEntry {
    try save(metric)
    return try enqueue(operation, metric, idempotencyKey: idempotencyKey)
  }

  /// Deletes the metric `id` and queues the deletion in this transaction.
  ///
  /// - Complexity: O(log n + log m).
  @discardableResult
  public func deleteForSync(
    metricID id: UUID, idempotencyKey: String? = nil
  ) throws
    -> OutboxEntry
  {
    try delete(HealthMetric.self, id: id)
    return try enqueueDeletion(of: HealthMetric.self, id: id, idempotencyKey: idempotencyKey)
  }
}
