import CSQLite

/// Collects the tables a statement reads and writes while SQLite compiles it.
///
/// SQLite calls the authorizer once per table and column access *at prepare time*, so the
/// cost is paid once per cached statement, never per execution. This is how a write
/// transaction learns which observed fetches it may have changed, without parsing SQL.
///
/// - Note: Isolation: not `Sendable`; owned by one `Connection` and touched only from
///   inside `sqlite3_prepare_v3` on that connection's owner.
final class AuthorizerCollector {
  var reads: Set<String> = []
  var writes: Set<String> = []
  var changesSchema = false
  /// BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE: the statement may end a snapshot.
  var controlsTransaction = false

  func reset() {
    if !reads.isEmpty { reads = [] }
    if !writes.isEmpty { writes = [] }
    changesSchema = false
    controlsTransaction = false
  }

  func note(action: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?) {
    switch action {
    case SQLITE_READ:
      insert(first, into: &reads)
    case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
      insert(first, into: &writes)
    case SQLITE_CREATE_TABLE, SQLITE_DROP_TABLE, SQLITE_CREATE_INDEX, SQLITE_DROP_INDEX,
      SQLITE_CREATE_TRIGGER, SQLITE_DROP_TRIGGER, SQLITE_CREATE_VIEW, SQLITE_DROP_VIEW:
      changesSchema = true
      // For indexes and triggers the table is the second argument.
      insert(
        action == SQLITE_CREATE_TABLE || action == SQLITE_DROP_TABLE ? first : second, into: &writes
      )
    case SQLITE_ALTER_TABLE:
      changesSchema = true
      insert(second, into: &writes)
    case SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
      controlsTransaction = true
    default:
      break
    }
  }

  private func insert(_ name: UnsafePointer<CChar>?, into set: inout Set<String>) {
    guard let name else { return }
    let table = String(cString: name).lowercased()
    if table.isEmpty || table.hasPrefix("sqlite_") { return }
    set.insert(table)
  }

  /// Installs the collector as `handle`'s authorizer. The connection keeps the collector
  /// alive for as long as the handle is open.
  func install(on handle: OpaquePointer) {
    let context = Unmanaged.passUnretained(self).toOpaque()
    sqlite3_set_authorizer(
      handle,
      { context, action, first, second, _, _ in
        guard let context else { return SQLITE_OK }
        Unmanaged<AuthorizerCollector>.fromOpaque(context).takeUnretainedValue()
          .note(action: action, first, second)
        return SQLITE_OK
      }, context)
  }
}
