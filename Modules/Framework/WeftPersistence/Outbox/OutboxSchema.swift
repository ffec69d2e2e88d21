#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The outbox table, created with the database (outside the app's `user_version`), and the
/// mapping between its rows and `OutboxEntry` / `DeliveryState`.
enum OutboxSchema {
  static let table = "weft_outbox"

  /// `AUTOINCREMENT` so an acknowledged entry's id is never reused: a late acknowledgement
  /// from a deliverer whose lease expired cannot delete a newer entry.
  static func install(in tx: DatabaseTransaction) throws(PersistenceError) {
    try tx.execute(
      """
      CREATE TABLE IF NOT EXISTS weft_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        idempotency_key TEXT NOT NULL UNIQUE,
        operation TEXT NOT NULL CHECK (operation IN ('create', 'update', 'delete')),
        model_type TEXT NOT NULL,
        record_id TEXT NOT NULL,
        payload BLOB NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at REAL NOT NULL,
        leased_until REAL,
        last_error TEXT,
        created_at REAL NOT NULL,
        dead_at REAL
      )
      """)
    try tx.execute(
      "CREATE INDEX IF NOT EXISTS weft_outbox_due ON weft_outbox (dead_at, next_attempt_at)")
    try tx.execute(
      "CREATE INDEX IF NOT EXISTS weft_outbox_record ON weft_outbox (model_type, record_id, id)")
    // Leases belong to deliverers of a previous process, which is gone.
    try tx.execute("UPDATE weft_outbox SET leased_until = NULL WHERE leased_until IS NOT NULL")
  }

  /// `DeliveryState.isDue` in SQL, for the row aliased `o`, with `?1` = now.
  static let dueCondition =
    "o.dead_at IS NULL AND o.next_attempt_at <= ?1 "
    + "AND (o.leased_until IS NULL OR o.leased_until <= ?1)"

  /// Due entries, oldest first, skipping any entry whose record has an older live entry
  /// (so one record's operations are delivered in order, one at a time).
  static let dueQuery =
    "SELECT o.* FROM weft_outbox AS o WHERE \(dueCondition) AND NOT EXISTS ("
    + "SELECT 1 FROM weft_outbox AS p WHERE p.model_type = o.model_type "
    + "AND p.record_id = o.record_id AND p.id < o.id AND p.dead_at IS NULL) "
    + "ORDER BY o.id LIMIT ?2"

  static func entry(_ row: Row) -> OutboxEntry {
    OutboxEntry(
      id: row.integer("id"),
      idempotencyKey: row.text("idempotency_key"),
      operation: OutboxOperation(rawValue: row.text("operation")) ?? .update,
      modelType: row.text("model_type"),
      recordID: row.text("record_id"),
      payload: Data(row.bytes("payload")),
      attempts: Int(row.integer("attempts")),
      nextAttemptAt: row.date("next_attempt_at") ?? Date(timeIntervalSince1970: 0),
      lastError: row["last_error"].flatMap { if case .text(let text) = $0 { text } else { nil } },
      createdAt: row.date("created_at") ?? Date(timeIntervalSince1970: 0),
      deadLetteredAt: row.date("dead_at"))
  }

  static func state(_ row: Row) -> DeliveryState {
    let phase: DeliveryState.Phase
    if let dead = row.date("dead_at") {
      phase = .deadLettered(at: dead)
    } else if let until = row.date("leased_until") {
      phase = .leased(until: until)
    } else {
      phase = .pending
    }
    return DeliveryState(
      phase: phase, attempts: Int(row.integer("attempts")),
      nextAttemptAt: row.date("next_attempt_at") ?? Date(timeIntervalSince1970: 0))
  }
}

extension Row {
  fileprivate func integer(_ name: String) -> Int64 {
    if case .integer(let value) = self[name] { return value }
    return 0
  }
  fileprivate func text(_ name: String) -> String {
    if case .text(let value) = self[name] { return value }
    return ""
  }
  fileprivate func bytes(_ name: String) -> [UInt8] {
    switch self[name] {
    case .blob(let bytes): bytes
    case .text(let text): Array(text.utf8)
    default: []
    }
  }
  fileprivate func date(_ name: String) -> Date? {
    switch self[name] {
    case .real(let seconds): Date(timeIntervalSince1970: seconds)
    case .integer(let seconds): Date(timeIntervalSince1970: Double(seconds))
    default: nil
    }
  }
}

extension Date {
  /// Seconds since 1970, as stored.
  var databaseValue: DatabaseValue { .real(timeIntervalSince1970) }
}
