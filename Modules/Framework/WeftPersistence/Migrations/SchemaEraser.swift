import CSQLite

/// `Configuration.eraseDatabaseOnSchemaChange`: compares the file's schema with the one the
/// migrations it ran make today (run again on an in-memory database), and erases the file's
/// tables when they differ, so the setup then migrates it from scratch.
///
/// - Complexity: one run of the migrations on an empty in-memory database, plus O(s) to
///   compare s schema objects.
/// - Note: Isolation: runs inside the setup, on the writer connection's owner.
struct SchemaEraser {
  let setup: DatabaseSetup

  private var connection: Connection { setup.connection }

  /// Erases the file's schema objects when they are not what `migrations` make.
  func eraseIfChanged(_ migrations: [Migration]) throws(PersistenceError) {
    let version = try connection.userVersion()
    guard version > 0 else { return }
    if version <= migrations.count,
      try schema(of: connection) == reference(Array(migrations.prefix(version)))
    {
      return
    }
    try erase()
  }

  /// The schema the first migrations make on an empty database (with the outbox).
  private func reference(_ migrations: [Migration]) throws(PersistenceError) -> [Row] {
    var configuration = setup.configuration
    configuration.eraseDatabaseOnSchemaChange = false
    let scratch = try Connection(
      path: ":memory:", readOnly: false, busyTimeout: configuration.busyTimeout,
      counters: StatisticsCounters(), cacheCapacity: configuration.statementCacheCapacity)
    _ = try DatabaseSetup(
      connection: scratch, configuration: configuration, environment: setup.environment,
      inMemory: true
    ).run(migrations: migrations)
    return try schema(of: scratch)
  }

  /// Every schema object but SQLite's own, in a stable order.
  private func schema(of connection: Connection) throws(PersistenceError) -> [Row] {
    try connection.rows(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' "
        + "ESCAPE '\\' ORDER BY type, name")
  }

  /// Drops every table, view and trigger (indexes go with their tables) and resets the
  /// schema version, in one transaction.
  private func erase() throws(PersistenceError) {
    let objects = try connection.rows(
      "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') AND "
        + "name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    try connection.execute("PRAGMA foreign_keys = OFF")
    try connection.write(
      { (tx) throws(PersistenceError) in
        for object in objects {
          guard case .text(let type) = object[0], case .text(let name) = object[1] else {
            continue
          }
          try tx.connection.execute("DROP \(type.uppercased()) IF EXISTS \(SQLBuilder.quote(name))")
        }
        try tx.connection.execute("PRAGMA user_version = 0")
      }, environment: setup.environment, lift: { $0 })
    try connection.execute("PRAGMA foreign_keys = ON")
  }
}
