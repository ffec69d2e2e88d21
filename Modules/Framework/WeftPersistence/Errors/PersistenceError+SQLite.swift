import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a failing SQLite call happened, so the error can name it.
struct ErrorContext {
  var path: String
  var table: String?
  var id: String?
  var sql: String?
}

extension PersistenceError {
  /// Maps an SQLite result code (and the connection's message and errno) to a typed error.
  ///
  /// - Complexity: O(m), m = length of the message (scanned for schema problems).
  static func sqlite(
    code: Int32, handle: OpaquePointer?, context: ErrorContext
  ) -> PersistenceError {
    let message =
      handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
    let systemErrno = handle.map { sqlite3_system_errno($0) } ?? 0
    return map(code: code, message: message, systemErrno: systemErrno, context: context)
  }

  static func map(
    code: Int32, message: String, systemErrno: Int32, context: ErrorContext
  ) -> PersistenceError {
    let path = context.path
    switch code & 0xff {
    case SQLITE_NOTADB:
      return .notADatabase(path: path)
    case SQLITE_CORRUPT:
      return .corrupt(path: path, detail: message)
    case SQLITE_READONLY:
      return .readOnlyLocation(path: path)
    case SQLITE_CANTOPEN:
      if systemErrno == EACCES || systemErrno == EROFS || systemErrno == EPERM
        || isUnwritable(path)
      {
        return .readOnlyLocation(path: path)
      }
      let detail =
        systemErrno == 0 ? message : "\(message): \(String(cString: strerror(systemErrno)))"
      return .cannotOpen(path: path, detail: detail)
    case SQLITE_CONSTRAINT:
      return .constraintViolation(
        path: path, table: context.table ?? constraintTable(in: message), id: context.id,
        detail: message)
    case SQLITE_BUSY, SQLITE_LOCKED:
      return .busy(path: path, detail: message)
    case SQLITE_FULL:
      return .diskFull(path: path)
    case SQLITE_IOERR:
      return .ioError(path: path, detail: message)
    case SQLITE_ERROR:
      if let mismatch = schemaMismatch(in: message, context: context) { return mismatch }
      return .sqlite(path: path, code: code, message: message, sql: context.sql)
    default:
      return .sqlite(path: path, code: code, message: message, sql: context.sql)
    }
  }

  /// Recognises SQLite's schema complaints: `no such table: t`, `no such column: c`,
  /// `table t has no column named c`.
  private static func schemaMismatch(
    in message: String, context: ErrorContext
  )
    -> PersistenceError?
  {
    if let table = message.suffix(after: "no such table: ") {
      let name = table.split(separator: ".").last.map(String.init) ?? table
      return .schemaMismatch(path: context.path, table: name, detail: "the table does not exist")
    }
    if let column = message.suffix(after: "no such column: ") {
      return .schemaMismatch(
        path: context.path, table: context.table ?? "?", detail: "no column \"\(column)\"")
    }
    if message.hasPrefix("table "), let range = message.firstRange(of: " has no column named ") {
      let table = String(message[message.index(message.startIndex, offsetBy: 6)..<range.lowerBound])
      let column = String(message[range.upperBound...])
      return .schemaMismatch(path: context.path, table: table, detail: "no column \"\(column)\"")
    }
    return nil
  }

  /// Whether `path` exists but cannot be written, or cannot be created for lack of
  /// permission. SQLite retries a failed read-write open read-only, so its errno often
  /// describes the second attempt (ENOENT) rather than the cause: on this failure path only,
  /// we try the creation ourselves to learn the real reason (and remove the file if that
  /// unexpectedly succeeds).
  private static func isUnwritable(_ path: String) -> Bool {
    if access(path, F_OK) == 0 { return access(path, W_OK) != 0 }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      close(descriptor)
      unlink(path)
      return false
    }
    let reason = errno
    return reason == EACCES || reason == EROFS || reason == EPERM
  }

  /// `UNIQUE constraint failed: outbox.key` → `outbox`.
  private static func constraintTable(in message: String) -> String? {
    guard let colon = message.firstRange(of: "failed: ") else { return nil }
    let rest = message[colon.upperBound...]
    guard let dot = rest.firstIndex(of: ".") else { return nil }
    return String(rest[..<dot])
  }
}

extension String {
  fileprivate func suffix(after prefix: String) -> String? {
    guard let range = firstRange(of: prefix) else { return nil }
    return String(self[range.upperBound...])
  }
}
