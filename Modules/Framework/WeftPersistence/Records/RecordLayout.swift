/// The statements a connection keeps for one model type: the upsert (with the column order
/// learnt from the first record encoded), fetch by id and delete by id.
///
/// - Note: Isolation: not `Sendable`; owned by one connection.
/// - Note: Allocations: made once per model type per connection.
final class RecordLayout {
  /// The column order of the cached upsert and each column's parameter index (1-based).
  struct Upsert {
    let columns: [String]
    let parameterIndex: [String: Int32]

    init(columns: [String]) {
      self.columns = columns
      var index: [String: Int32] = [:]
      for (offset, name) in columns.enumerated() { index[name] = Int32(offset + 1) }
      self.parameterIndex = index
    }
  }

  let table: String
  let quotedTable: String
  let idColumn: String
  /// Whether the id is a `UUID`: lookups by id then match its canonical (upper-case) and
  /// lower-case text, and a save first renames a lower-case row to the canonical id.
  let idIsUUID: Bool
  var upsert: (statement: Statement, layout: Upsert)?
  var selectByID: Statement?
  var deleteByID: Statement?
  var canonicalizeID: Statement?

  init(table: String, idColumn: String, idIsUUID: Bool) {
    self.table = table
    self.quotedTable = SQLBuilder.quote(table)
    self.idColumn = idColumn
    self.idIsUUID = idIsUUID
  }

  /// ` WHERE "id" = ?1`, or ` WHERE "id" IN (?1, ?2)` (canonical, lower case) for UUID ids —
  /// two equality probes of the primary-key index.
  var idCondition: String {
    let column = SQLBuilder.quote(idColumn)
    return idIsUUID ? " WHERE \(column) IN (?1, ?2)" : " WHERE \(column) = ?1"
  }

  /// Gives a row stored under the lower-case form of a UUID id (?2) the canonical id (?1),
  /// so the upsert that follows updates it rather than inserting a second row. `OR IGNORE`:
  /// if a canonical row exists too (two rows written before), both are left as they are and
  /// the upsert updates the canonical one. The `COLLATE BINARY` test keeps a column declared
  /// `COLLATE NOCASE` from rewriting a row that is already canonical.
  var canonicalizeIDSQL: String {
    let column = SQLBuilder.quote(idColumn)
    return "UPDATE OR IGNORE \(quotedTable) SET \(column) = ?1 WHERE \(column) = ?2 "
      + "AND \(column) <> ?1 COLLATE BINARY"
  }

  /// `INSERT INTO "t" ("a", "b") VALUES (?1, ?2) ON CONFLICT ("id") DO UPDATE SET
  /// "b" = excluded."b"` — an upsert that updates in place, so foreign keys pointing at the
  /// row and its rowid survive (`INSERT OR REPLACE` would delete and re-insert it).
  func upsertSQL(columns: [String]) -> String {
    let names = columns.map(SQLBuilder.quote).joined(separator: ", ")
    let parameters = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
    let updates = columns.filter { $0 != idColumn }
      .map { "\(SQLBuilder.quote($0)) = excluded.\(SQLBuilder.quote($0))" }
    let conflict =
      updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updates.joined(separator: ", ")
    return "INSERT INTO \(quotedTable) (\(names)) VALUES (\(parameters)) "
      + "ON CONFLICT (\(SQLBuilder.quote(idColumn))) \(conflict)"
  }
}

/// The id as text, for messages and the outbox: `42`, `"A1B2…"` without quotes.
func recordIDText<ID: Encodable>(_ id: ID) -> String {
  // Only text for a message or the outbox: the operation itself reports the encoding error.
  let encoded = try? ColumnValue.encode(id)  // try?: if unencodable, its description
  return switch encoded {
  case .integer(let value): String(value)
  case .real(let value): String(value)
  case .text(let value): value
  default: String(describing: id)
  }
}
