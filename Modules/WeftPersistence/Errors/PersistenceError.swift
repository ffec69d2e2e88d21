/// Everything that can go wrong in `WeftPersistence`, each case naming where it happened (the
/// file, the table, the record) and saying how to fix it.
///
/// ```swift
/// do {
///   let database = try await Database.open(at: path, migrations: migrations)
/// } catch let error as PersistenceError {
///   print(error)  // "…/health.sqlite is not an SQLite database: …"
/// }
/// ```
///
/// The `description` of every case is part of the API: tests pin its wording, so messages
/// stay useful. Every error thrown by this module is a `PersistenceError`, except errors
/// thrown by your own closures (`write`, `read`, migrations), which pass through unchanged.
///
/// - Complexity: `description` is O(m), m = length of the names and details it quotes.
/// - Note: Isolation: a `Sendable` value.
/// - Note: Allocations: the message, when `description` is read.
public enum PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file exists but is not an SQLite database (another format, or a wrong path).
  case notADatabase(path: String)
  /// The file is an SQLite database whose content is damaged.
  case corrupt(path: String, detail: String)
  /// The file or its folder cannot be written (permissions, read-only volume).
  case readOnlyLocation(path: String)
  /// The file could not be opened for another reason (missing folder, too many files).
  case cannotOpen(path: String, detail: String)
  /// The database was written by a newer version of the app: its schema version is higher
  /// than the last migration this code knows. The file was left untouched.
  case newerSchema(path: String, found: Int, latestKnown: Int)
  /// The tables on disk do not match what the code expects (a missing table or column, or
  /// tables that no migration created).
  case schemaMismatch(path: String, table: String, detail: String)
  /// The list of migrations given to `Database.open` is malformed.
  case invalidMigrations(detail: String)
  /// A migration threw or failed; its transaction was rolled back and the schema version
  /// stays at `version - 1`.
  case migrationFailed(path: String, version: Int, name: String, detail: String)
  /// A stored row could not be decoded into the model.
  case decodingFailed(table: String, id: String?, codingPath: String, detail: String)
  /// A model could not be encoded into columns.
  case encodingFailed(table: String, codingPath: String, detail: String)
  /// A write broke a constraint (unique, not null, check, foreign key); the transaction was
  /// rolled back.
  case constraintViolation(path: String, table: String?, id: String?, detail: String)
  /// A field name used in a predicate or sort is not a plain identifier.
  case invalidField(table: String, field: String)
  /// Another connection (often another process) held the database past the busy timeout.
  case busy(path: String, detail: String)
  /// The disk is full; the transaction was rolled back.
  case diskFull(path: String)
  /// An operating-system I/O error.
  case ioError(path: String, detail: String)
  /// The database was closed with `close()`.
  case closed(path: String)
  /// An outbox entry was not found (already acknowledged, or never enqueued).
  case outboxEntryNotFound(path: String, id: Int64)
  /// Any other SQLite error, with its result code, message and statement.
  case sqlite(path: String, code: Int32, message: String, sql: String?)

  public var description: String {
    switch self {
    case .notADatabase(let path):
      "\(path) is not an SQLite database: the file exists but has another format. "
        + "Check the path, or move the file aside to start a new database."
    case .corrupt(let path, let detail):
      "\(path) is corrupt (\(detail)). Restore it from a backup or delete it to start "
        + "over; run integrityCheck() to see the damage."
    case .readOnlyLocation(let path):
      "\(path) cannot be written: the file or its folder is read-only. Open the database in "
        + "a writable folder (such as Application Support) or fix the permissions."
    case .cannotOpen(let path, let detail):
      "\(path) cannot be opened (\(detail)). Check that the folder exists and the path is "
        + "right."
    case .newerSchema(let path, let found, let latestKnown):
      "\(path) has schema version \(found) but this code knows versions up to "
        + "\(latestKnown): it was written by a newer app version. The file was left "
        + "untouched; update the app, or open a different file."
    case .schemaMismatch(let path, let table, let detail):
      "\(path): table \"\(table)\" does not match the code (\(detail)). Add a migration "
        + "that creates or alters it."
    case .invalidMigrations(let detail):
      "invalid migrations: \(detail). Number migrations 1, 2, 3, … in order, without gaps, "
        + "and never renumber a shipped one."
    case .migrationFailed(let path, let version, let name, let detail):
      "\(path): migration \(version) \"\(name)\" failed (\(detail)); it was rolled back and "
        + "the schema stays at version \(version - 1). Fix the migration and reopen."
    case .decodingFailed(let table, let id, let codingPath, let detail):
      "cannot decode a row of \"\(table)\"\(id.map { " with id \($0)" } ?? "") at "
        + "\(codingPath.isEmpty ? "the top level" : "'\(codingPath)'"): \(detail). Make the "
        + "model's field match the column type, or add a migration that converts the data."
    case .encodingFailed(let table, let codingPath, let detail):
      "cannot encode a model for \"\(table)\" at "
        + "\(codingPath.isEmpty ? "the top level" : "'\(codingPath)'"): \(detail). Records "
        + "must encode as a keyed container of storable fields."
    case .constraintViolation(let path, let table, let id, let detail):
      "\(path): a constraint failed\(table.map { " on \"\($0)\"" } ?? "")"
        + "\(id.map { " for id \($0)" } ?? "") (\(detail)); the transaction was rolled back. "
        + "Check for a duplicate key, a missing required value or a dangling reference."
    case .invalidField(let table, let field):
      "field \"\(field)\" of \"\(table)\" is not a valid column name: use letters, digits "
        + "and underscores, starting with a letter or an underscore."
    case .busy(let path, let detail):
      "\(path) stayed locked by another connection past the busy timeout (\(detail)). "
        + "Keep transactions short, or raise Configuration.busyTimeout."
    case .diskFull(let path):
      "\(path): the disk is full; the transaction was rolled back. Free some space and retry."
    case .ioError(let path, let detail):
      "\(path): an I/O error occurred (\(detail)). Check the disk and retry."
    case .closed(let path):
      "\(path) was closed: open it again with Database.open to keep using it."
    case .outboxEntryNotFound(let path, let id):
      "\(path): outbox entry \(id) does not exist: it was already acknowledged or "
        + "dead-lettered and purged. Acknowledge each entry once."
    case .sqlite(let path, let code, let message, let sql):
      "\(path): SQLite error \(code): \(message)\(sql.map { " in `\($0)`" } ?? "")."
    }
  }
}
