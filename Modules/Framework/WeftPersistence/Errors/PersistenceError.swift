/// Everything that can go wrong in `WeftPersistence`, each error naming where it happened (the
/// file, the table, the record) and saying how to fix it.
///
/// Switch on ``kind`` to handle the errors you care about; keep a `default:`, because new
/// kinds may be added in a minor release without breaking your `switch`:
///
/// ```swift
/// do {
///   let database = try await Database.open(at: path, migrations: migrations)
/// } catch {
///   // `open` throws only `PersistenceError`: `error` is one, no cast.
///   switch error.kind {
///   case .notADatabase, .newerSchema: showRestoreScreen(error.path)
///   case .busy: retryLater()
///   default: print(error)  // "…/health.sqlite is not an SQLite database: …"
///   }
/// }
/// ```
///
/// It is a struct rather than an enum so that adding a kind is not a source-breaking change
/// (Swift has no non-frozen enums outside library evolution); the fields that locate the error
/// (`path`, `table`, `recordID`, `detail`, …) are optional properties, set for the kinds that
/// carry them. The static functions with the old case names (`.notADatabase(path:)`,
/// `.closed(path:)`, …) build errors, so `throw .closed(path: p)` and
/// `#expect(throws: PersistenceError.closed(path: p))` read as before; `catch
/// PersistenceError.Kind.busy { … }` matches one kind.
///
/// The functions of this module that run none of your code throw exactly this type
/// (`throws(PersistenceError)`), so a `do` around them needs no cast (Swift infers the
/// `catch`'s type in a function body; in a closure, write `do throws(PersistenceError)`).
/// The functions that run your closures (`write`, `read`, `readSynchronously`,
/// `writeSynchronously`, `observe`) keep an untyped `throws`: errors thrown by your own
/// closures pass through unchanged (`catch MyError.x` still matches them), and every other
/// error they throw is a `PersistenceError`. A body declared `throws(PersistenceError)` (or
/// one that throws nothing) selects an overload of `write`, `read`, `readSynchronously` and
/// `writeSynchronously` that throws exactly `PersistenceError`. A migration is the exception
/// to the pass-through: whatever its body throws is reported as kind `migrationFailed`, with
/// the original error's text in `detail`.
///
/// The `description` of every error is part of the API: tests pin its wording, so messages
/// stay useful.
///
/// - Complexity: `description` is O(m), m = length of the names and details it quotes; every
///   other member is O(1).
/// - Note: Isolation: a `Sendable` value; any isolation.
/// - Note: Allocations: the message, when `description` is read.
public struct PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, without the details: the value to `switch` on.
  ///
  /// New kinds may be added in minor releases; a `switch` over kinds needs a `default:`.
  ///
  /// - Complexity: O(1) to compare; `description` returns the kind's name.
  /// - Note: Isolation: a `Sendable` value; any isolation.
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    /// The kind's name, as written after `PersistenceError.Kind.`.
    public let description: String

    private init(_ name: String) { description = name }

    /// The file exists but is not an SQLite database (another format, or a wrong path).
    public static let notADatabase = Kind("notADatabase")
    /// The file is an SQLite database whose content is damaged.
    public static let corrupt = Kind("corrupt")
    /// The file or its folder cannot be written (permissions, read-only volume).
    public static let readOnlyLocation = Kind("readOnlyLocation")
    /// The file could not be opened for another reason (missing folder, too many files).
    public static let cannotOpen = Kind("cannotOpen")
    /// The database was written by a newer version of the app; the file was left untouched.
    public static let newerSchema = Kind("newerSchema")
    /// The tables on disk do not match what the code expects.
    public static let schemaMismatch = Kind("schemaMismatch")
    /// The list of migrations given to `Database.open` is malformed.
    public static let invalidMigrations = Kind("invalidMigrations")
    /// A migration threw or failed; its transaction was rolled back.
    public static let migrationFailed = Kind("migrationFailed")
    /// A stored row could not be decoded into the model.
    public static let decodingFailed = Kind("decodingFailed")
    /// A model could not be encoded into columns.
    public static let encodingFailed = Kind("encodingFailed")
    /// A write broke a constraint (unique, not null, check, foreign key).
    public static let constraintViolation = Kind("constraintViolation")
    /// A field name used in a predicate or sort is not a plain identifier.
    public static let invalidField = Kind("invalidField")
    /// Another connection held the database past the busy timeout.
    public static let busy = Kind("busy")
    /// The disk is full; the transaction was rolled back.
    public static let diskFull = Kind("diskFull")
    /// An operating-system I/O error.
    public static let ioError = Kind("ioError")
    /// The database was closed with `close()`.
    public static let closed = Kind("closed")
    /// An outbox entry was not found (already acknowledged, or never enqueued).
    public static let outboxEntryNotFound = Kind("outboxEntryNotFound")
    /// Any other SQLite error, with its result code, message and statement.
    public static let sqlite = Kind("sqlite")
    /// The task was cancelled while it waited for a free reader connection.
    public static let cancelled = Kind("cancelled")

    /// Whether `error` is a `PersistenceError` of `kind`: lets
    /// `catch PersistenceError.Kind.busy { … }` (and `case PersistenceError.Kind.busy:` in a
    /// `switch` over an `any Error`) match one kind.
    public static func ~= (kind: Kind, error: any Error) -> Bool {
      (error as? PersistenceError)?.kind == kind
    }
  }

  /// The error's kind and the values it quotes (one case per kind; internal, so adding one
  /// breaks nobody's `switch`).
  enum Storage: Sendable, Equatable {
    case notADatabase(path: String)
    case corrupt(path: String, detail: String)
    case readOnlyLocation(path: String)
    case cannotOpen(path: String, detail: String)
    case newerSchema(path: String, found: Int, latestKnown: Int)
    case schemaMismatch(path: String, table: String, detail: String)
    case invalidMigrations(detail: String)
    case migrationFailed(path: String, version: Int, name: String, detail: String)
    case decodingFailed(table: String, id: String?, codingPath: String, detail: String)
    case encodingFailed(table: String, codingPath: String, detail: String)
    case constraintViolation(path: String, table: String?, id: String?, detail: String)
    case invalidField(table: String, field: String)
    case busy(path: String, detail: String)
    case diskFull(path: String)
    case ioError(path: String, detail: String)
    case closed(path: String)
    case outboxEntryNotFound(path: String, id: Int64)
    case sqlite(path: String, code: Int32, message: String, sql: String?)
    case cancelled(path: String)
  }

  let storage: Storage

  init(_ storage: Storage) { self.storage = storage }

  /// What went wrong: switch on it (with a `default:`) or compare it, `error.kind == .busy`.
  public var kind: Kind {
    switch storage {
    case .notADatabase: .notADatabase
    case .corrupt: .corrupt
    case .readOnlyLocation: .readOnlyLocation
    case .cannotOpen: .cannotOpen
    case .newerSchema: .newerSchema
    case .schemaMismatch: .schemaMismatch
    case .invalidMigrations: .invalidMigrations
    case .migrationFailed: .migrationFailed
    case .decodingFailed: .decodingFailed
    case .encodingFailed: .encodingFailed
    case .constraintViolation: .constraintViolation
    case .invalidField: .invalidField
    case .busy: .busy
    case .diskFull: .diskFull
    case .ioError: .ioError
    case .closed: .closed
    case .outboxEntryNotFound: .outboxEntryNotFound
    case .sqlite: .sqlite
    case .cancelled: .cancelled
    }
  }

  /// The database file the error happened in (`":memory:"` for an in-memory database); `nil`
  /// for `invalidMigrations`, `decodingFailed`, `encodingFailed` and `invalidField`.
  public var path: String? {
    switch storage {
    case .notADatabase(let path), .corrupt(let path, _), .readOnlyLocation(let path),
      .cannotOpen(let path, _), .newerSchema(let path, _, _), .schemaMismatch(let path, _, _),
      .migrationFailed(let path, _, _, _), .constraintViolation(let path, _, _, _),
      .busy(let path, _), .diskFull(let path), .ioError(let path, _), .closed(let path),
      .outboxEntryNotFound(let path, _), .sqlite(let path, _, _, _), .cancelled(let path):
      path
    case .invalidMigrations, .decodingFailed, .encodingFailed, .invalidField: nil
    }
  }

  /// The table involved (for `decodingFailed` of a raw query, the SQL), when known.
  public var table: String? {
    switch storage {
    case .schemaMismatch(_, let table, _), .decodingFailed(let table, _, _, _),
      .encodingFailed(let table, _, _), .invalidField(let table, _):
      table
    case .constraintViolation(_, let table, _, _): table
    default: nil
    }
  }

  /// The id of the record involved, as text (`decodingFailed`, `constraintViolation`, when
  /// known; the entry's id for `outboxEntryNotFound`).
  public var recordID: String? {
    switch storage {
    case .decodingFailed(_, let id, _, _), .constraintViolation(_, _, let id, _): id
    case .outboxEntryNotFound(_, let id): String(id)
    default: nil
    }
  }

  /// What SQLite, the decoder or the check said (for `sqlite`, SQLite's message; for
  /// `invalidField`, the field name).
  public var detail: String? {
    switch storage {
    case .corrupt(_, let detail), .cannotOpen(_, let detail), .schemaMismatch(_, _, let detail),
      .invalidMigrations(let detail), .migrationFailed(_, _, _, let detail),
      .decodingFailed(_, _, _, let detail), .encodingFailed(_, _, let detail),
      .constraintViolation(_, _, _, let detail), .busy(_, let detail), .ioError(_, let detail):
      detail
    case .sqlite(_, _, let message, _): message
    case .invalidField(_, let field): field
    default: nil
    }
  }

  /// The coding path (`"tags.2"`; empty for the top level) of `decodingFailed` and
  /// `encodingFailed`.
  public var codingPath: String? {
    switch storage {
    case .decodingFailed(_, _, let codingPath, _), .encodingFailed(_, let codingPath, _):
      codingPath
    default: nil
    }
  }

  /// The schema version involved: the file's for `newerSchema`, the failed migration's for
  /// `migrationFailed`.
  public var schemaVersion: Int? {
    switch storage {
    case .newerSchema(_, let found, _): found
    case .migrationFailed(_, let version, _, _): version
    default: nil
    }
  }

  /// SQLite's extended result code of `sqlite` errors.
  public var sqliteCode: Int32? {
    if case .sqlite(_, let code, _, _) = storage { return code }
    return nil
  }

  /// The statement that failed, for `sqlite` errors that know it.
  public var sql: String? {
    if case .sqlite(_, _, _, let sql) = storage { return sql }
    return nil
  }

  // MARK: Building errors (the former enum cases)

  /// The file exists but is not an SQLite database (another format, or a wrong path).
  public static func notADatabase(path: String) -> PersistenceError {
    PersistenceError(.notADatabase(path: path))
  }
  /// The file is an SQLite database whose content is damaged.
  public static func corrupt(path: String, detail: String) -> PersistenceError {
    PersistenceError(.corrupt(path: path, detail: detail))
  }
  /// The file or its folder cannot be written (permissions, read-only volume).
  public static func readOnlyLocation(path: String) -> PersistenceError {
    PersistenceError(.readOnlyLocation(path: path))
  }
  /// The file could not be opened for another reason (missing folder, too many files).
  public static func cannotOpen(path: String, detail: String) -> PersistenceError {
    PersistenceError(.cannotOpen(path: path, detail: detail))
  }
  /// The database was written by a newer version of the app: its schema version is higher
  /// than the last migration this code knows. The file was left untouched.
  public static func newerSchema(path: String, found: Int, latestKnown: Int) -> PersistenceError {
    PersistenceError(.newerSchema(path: path, found: found, latestKnown: latestKnown))
  }
  /// The tables on disk do not match what the code expects (a missing table or column, or
  /// tables that no migration created).
  public static func schemaMismatch(
    path: String, table: String, detail: String
  )
    -> PersistenceError
  {
    PersistenceError(.schemaMismatch(path: path, table: table, detail: detail))
  }
  /// The list of migrations given to `Database.open` is malformed.
  public static func invalidMigrations(detail: String) -> PersistenceError {
    PersistenceError(.invalidMigrations(detail: detail))
  }
  /// A migration threw or failed; its transaction was rolled back and the schema version
  /// stays at `version - 1`.
  public static func migrationFailed(
    path: String, version: Int, name: String, detail: String
  )
    -> PersistenceError
  {
    PersistenceError(.migrationFailed(path: path, version: version, name: name, detail: detail))
  }
  /// A stored row could not be decoded into the model.
  public static func decodingFailed(
    table: String, id: String?, codingPath: String, detail: String
  ) -> PersistenceError {
    PersistenceError(.decodingFailed(table: table, id: id, codingPath: codingPath, detail: detail))
  }
  /// A model could not be encoded into columns.
  public static func encodingFailed(
    table: String, codingPath: String, detail: String
  )
    -> PersistenceError
  {
    PersistenceError(.encodingFailed(table: table, codingPath: codingPath, detail: detail))
  }
  /// A write broke a constraint (unique, not null, check, foreign key); the transaction was
  /// rolled back.
  public static func constraintViolation(
    path: String, table: String?, id: String?, detail: String
  ) -> PersistenceError {
    PersistenceError(.constraintViolation(path: path, table: table, id: id, detail: detail))
  }
  /// A field name used in a predicate or sort is not a plain identifier.
  public static func invalidField(table: String, field: String) -> PersistenceError {
    PersistenceError(.invalidField(table: table, field: field))
  }
  /// Another connection (often another process) held the database past the busy timeout.
  public static func busy(path: String, detail: String) -> PersistenceError {
    PersistenceError(.busy(path: path, detail: detail))
  }
  /// The disk is full; the transaction was rolled back.
  public static func diskFull(path: String) -> PersistenceError {
    PersistenceError(.diskFull(path: path))
  }
  /// An operating-system I/O error.
  public static func ioError(path: String, detail: String) -> PersistenceError {
    PersistenceError(.ioError(path: path, detail: detail))
  }
  /// The database was closed with `close()`.
  public static func closed(path: String) -> PersistenceError {
    PersistenceError(.closed(path: path))
  }
  /// An outbox entry was not found (already acknowledged, or never enqueued).
  public static func outboxEntryNotFound(path: String, id: Int64) -> PersistenceError {
    PersistenceError(.outboxEntryNotFound(path: path, id: id))
  }
  /// Any other SQLite error, with its result code, message and statement.
  public static func sqlite(
    path: String, code: Int32, message: String, sql: String?
  )
    -> PersistenceError
  {
    PersistenceError(.sqlite(path: path, code: code, message: message, sql: sql))
  }
  /// The task was cancelled while it waited for a free reader connection (all of them were
  /// busy); nothing was read.
  public static func cancelled(path: String) -> PersistenceError {
    PersistenceError(.cancelled(path: path))
  }

  public var description: String {
    switch storage {
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
    case .cancelled(let path):
      "\(path): the task was cancelled while it waited for a free reader; nothing was read."
    }
  }
}
