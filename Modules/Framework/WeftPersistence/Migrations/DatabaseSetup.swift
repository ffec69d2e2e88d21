import CSQLite

/// The steps of opening a database, in the order that keeps a file we must not touch
/// untouched: read and validate first, refuse a newer schema or another app's tables, and
/// only then switch to WAL, create the outbox and run migrations.
struct DatabaseSetup {
  let connection: Connection
  let configuration: Database.Configuration
  let environment: DatabaseEnvironment
  let inMemory: Bool

  var path: String { connection.path }

  func run(migrations: [Migration]) throws(PersistenceError) -> [MigrationRun] {
    try Migration.validate(migrations)
    if configuration.eraseDatabaseOnSchemaChange, !inMemory {
      try SchemaEraser(setup: self).eraseIfChanged(migrations)
    }
    // Reading the header and the schema surfaces "not a database" and corruption.
    let version = try connection.userVersion()
    _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
    if version > migrations.count {
      throw PersistenceError.newerSchema(path: path, found: version, latestKnown: migrations.count)
    }
    // Every refusal comes before the first write, so a refused file keeps every byte: the
    // journal-mode switch below rewrites the header and creates the -wal and -shm files.
    if version == 0, !migrations.isEmpty { try refuseForeignTables() }
    if sqlite3_db_readonly(connection.handle, "main") == 1 {
      throw PersistenceError.readOnlyLocation(path: path)
    }
    try configure()
    try connection.write(
      { (tx) throws(PersistenceError) in try OutboxSchema.install(in: tx) },
      environment: environment, lift: { $0 })
    return try migrate(from: version, migrations)
  }

  private func configure() throws(PersistenceError) {
    if !inMemory {
      let mode = try connection.scalar("PRAGMA journal_mode = WAL")
      guard mode == .text("wal") else {
        throw PersistenceError.cannotOpen(
          path: path,
          detail: "SQLite could not switch to WAL (journal mode stays \(mode ?? .null)); the "
            + "folder must allow creating the -wal and -shm files")
      }
    }
    try connection.execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
    try connection.execute("PRAGMA foreign_keys = ON")
    try connection.execute("PRAGMA journal_size_limit = \(max(configuration.journalSizeLimit, 0))")
    try connection.execute(
      "PRAGMA wal_autocheckpoint = \(max(configuration.autoCheckpointPages, 0))")
  }

  /// A version-0 database with tables this code did not create is someone else's file:
  /// migrating it would mix two schemas.
  private func refuseForeignTables() throws(PersistenceError) {
    let rows = try connection.rows(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
        + "ESCAPE '\\' AND name NOT LIKE 'weft\\_%' ESCAPE '\\' ORDER BY name")
    let names = rows.compactMap { row -> String? in
      if case .text(let name) = row[0] { return name }
      return nil
    }
    guard let first = names.first else { return }
    throw PersistenceError.schemaMismatch(
      path: path, table: first,
      detail:
        "the file has tables (\(names.joined(separator: ", "))) but schema version 0, so no "
        + "migration of this code created them")
  }

  private func migrate(
    from version: Int, _ migrations: [Migration]
  ) throws(PersistenceError) -> [MigrationRun] {
    var runs: [MigrationRun] = []
    for migration in migrations where migration.version > version {
      let clock = ContinuousClock()
      let started = clock.now
      var applied = false
      do {
        try connection.write(
          { tx in
            // Another process may have migrated between our check and this transaction.
            guard try tx.connection.userVersion() < migration.version else { return }
            try migration.body(tx)
            try tx.connection.execute("PRAGMA user_version = \(migration.version)")
            applied = true
          }, environment: environment, lift: { $0 })
      } catch {
        throw PersistenceError.migrationFailed(
          path: path, version: migration.version, name: migration.name,
          detail: String(describing: error))
      }
      if applied {
        runs.append(
          MigrationRun(
            version: migration.version, name: migration.name, duration: clock.now - started))
      }
    }
    return runs
  }
}
