// WeftPersistence against raw sqlite3_* calls, measured side by side in one run.
//
// Needs `.product(name: "WeftPersistence", package: "Weft")` among the Benchmarks target's
// dependencies (it brings the CSQLite module with it). Without it, the report says so.

#if canImport(WeftPersistence) && canImport(CSQLite)
import CSQLite
import Foundation
import WeftPersistence

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the persistence benchmark and returns the report's lines: 100,000 small records
/// inserted in one transaction and fetched back through an indexed predicate, each through
/// the Codable store and through raw `sqlite3_*` calls running the same SQL on the same
/// settings, plus one-row write transactions with and without observers. Release builds
/// only; fixed counts; medians and spreads of interleaved rounds; ratios are per round.
///
/// For profiling, `WEFT_BENCH_PERSISTENCE_PROFILE=writes10` (or `percall`) runs only that
/// part, 20 times, after one setup, and reports nothing else: run the binary under `perf`.
func runPersistenceBenchmark() async throws -> [String] {
  let benchmark = PersistenceBenchmark(rounds: 7, records: 100_000, categories: 1_000)
  if let part = ProcessInfo.processInfo.environment["WEFT_BENCH_PERSISTENCE_PROFILE"] {
    return try await benchmark.profile(part)
  }
  return try await benchmark.run()
}

/// The record both sides write and read: five small fields, one indexed.
private struct BenchRecord: PersistableRecord {
  static let tableName = "bench"
  var id: Int
  var category: Int
  var name: String
  var value: Double
  var createdAt: Double
}

/// The same record decoded by position (`RowDecodable`): the fast path.
private struct FastBenchRecord: PersistableRecord, RowDecodable {
  static let tableName = "bench"
  var id: Int
  var category: Int
  var name: String
  var value: Double
  var createdAt: Double

  init(columns: RowColumns) throws {
    id = try columns[0]
    category = try columns[1]
    name = try columns[2]
    value = try columns[3]
    createdAt = try columns[4]
  }
}

/// Process CPU time (all threads: the store works on its connections' threads) and wall
/// time of one measured block.
private struct BenchSample {
  var cpu: Double
  var wall: Double

  static func measure<T>(_ body: () async throws -> T) async rethrows -> (BenchSample, T) {
    let cpu = processCPUSeconds()
    let wall = ContinuousClock.now
    let value = try await body()
    let elapsed = ContinuousClock.now - wall
    let sample = BenchSample(
      cpu: processCPUSeconds() - cpu,
      wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    return (sample, value)
  }

  static func processCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}

private struct PersistenceBenchmark {
  let rounds: Int
  let records: Int
  let categories: Int

  static let createTable =
    "CREATE TABLE bench (id INTEGER PRIMARY KEY, category INTEGER NOT NULL, "
    + "name TEXT NOT NULL, value REAL NOT NULL, createdAt REAL NOT NULL)"
  static let createIndex = "CREATE INDEX bench_category ON bench (category)"
  static let migrations = [
    Migration(1, "bench") { tx in
      try tx.execute(createTable)
      try tx.execute(createIndex)
    }
  ]
  /// The statement the store prepares for `save` (an upsert), so both sides run the same
  /// SQL.
  static let upsert =
    "INSERT INTO \"bench\" (\"id\", \"category\", \"name\", \"value\", \"createdAt\") "
    + "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (\"id\") DO UPDATE SET "
    + "\"category\" = excluded.\"category\", \"name\" = excluded.\"name\", "
    + "\"value\" = excluded.\"value\", \"createdAt\" = excluded.\"createdAt\""
  static let select = "SELECT * FROM \"bench\" WHERE \"category\" = ?1"

  func run() async throws -> [String] {
    #if DEBUG
    let build = "DEBUG BUILD: figures are meaningless, use -c release"
    #else
    let build = "release build"
    #endif
    let rows = benchRows()
    let folder = try scratchFolder("bench")
    defer { try? FileManager.default.removeItem(atPath: folder) }

    var results: [String: [BenchSample]] = [:]
    /// Observation re-fetches per round of 1000 writes (all observers together).
    var refetches: [String: [Double]] = [:]
    for round in 0..<rounds {
      let storePath = "\(folder)/store-\(round).sqlite"
      let rawPath = "\(folder)/raw-\(round).sqlite"
      // Interleaved, alternating which side goes first.
      let storeFirst = round.isMultiple(of: 2)
      if storeFirst {
        results["store insert", default: []].append(try await storeInserts(rows, storePath))
      }
      results["raw insert", default: []].append(try await rawInserts(rows, rawPath))
      if !storeFirst {
        results["store insert", default: []].append(try await storeInserts(rows, storePath))
      }

      let database = try await Database.open(at: storePath, migrations: Self.migrations)
      let raw = try RawConnection(path: rawPath)
      if storeFirst { results["store fetch", default: []].append(try await storeFetches(database)) }
      results["raw fetch", default: []].append(try await rawFetches(raw))
      if !storeFirst {
        results["store fetch", default: []].append(try await storeFetches(database))
      }
      results["store fetch fast", default: []].append(try await storeFetches(database, fast: true))
      results["codable floor", default: []].append(codableFloor())
      results["raw fetch per transaction", default: []].append(
        try await rawFetches(raw, perTransaction: true))
      results["store fetch per call", default: []].append(try await storeFetchesPerCall(database))
      results["store fetch per sync call", default: []].append(
        try await storeFetchesPerSynchronousCall(database))
      results["store fetch per sync call fast", default: []].append(
        try await storeFetchesPerSynchronousCall(database, fast: true))
      results["empty reads", default: []].append(try await emptyReads(database))
      results["raw writes", default: []].append(try await rawWrites(raw))
      results["sync writes", default: []].append(try await synchronousWrites(database))
      for observers in [0, 1, 10] {
        let before = database.statistics
        results["writes \(observers)", default: []].append(
          try await writes(database, observers: observers))
        let after = database.statistics
        refetches["writes \(observers)", default: []].append(
          Double(after.observationFetches - before.observationFetches))
      }
      await database.close()
    }

    /// One line: CPU and wall time of both sides and their per-round ratios; the target
    /// is checked on CPU time, and also on wall time for write latency (`andWall`).
    func line(
      _ name: String, _ store: String, _ raw: String, target: Double?, andWall: Bool = false
    ) -> String {
      let storeSamples = results[store] ?? []
      let rawSamples = results[raw] ?? []
      let cpuRatio = BenchSpread(zip(storeSamples, rawSamples).map { $0.cpu / $1.cpu })
      let wallRatio = BenchSpread(zip(storeSamples, rawSamples).map { $0.wall / $1.wall })
      let verdict = target.map { target in
        let cpu = cpuRatio.median <= target ? "met" : "MISSED"
        let wall = wallRatio.median <= target ? "met" : "MISSED"
        return andWall
          ? " (target ≤ \(target)× on CPU: \(cpu); on wall: \(wall))"
          : " (target ≤ \(target)× on CPU: \(cpu))"
      }
      return "\(name): CPU \(BenchSpread(storeSamples.map(\.cpu)).milliseconds) vs "
        + "\(BenchSpread(rawSamples.map(\.cpu)).milliseconds), ratio \(cpuRatio.ratio); "
        + "wall \(BenchSpread(storeSamples.map(\.wall)).milliseconds) vs "
        + "\(BenchSpread(rawSamples.map(\.wall)).milliseconds), ratio \(wallRatio.ratio)"
        + (verdict ?? "")
    }
    /// What one `read` call costs beyond its body: the hop to a reader's queue and back,
    /// and a read transaction that reads nothing.
    func hopLine() -> String {
      let empty = BenchSpread((results["empty reads"] ?? []).map { $0.cpu / 1000 * 1e6 })
      let perCall = zip(results["store fetch per call"] ?? [], results["store fetch"] ?? [])
      let extra = BenchSpread(perCall.map { ($0.cpu - $1.cpu) / Double(categories) * 1e6 })
      return String(
        format: "cost of one read call (1000 empty database.read calls): %.1f µs CPU (±%.0f%%) "
          + "per call; the per-call fetch costs %.1f µs CPU (±%.0f%%) more per query than the "
          + "batched one", empty.median, empty.halfRangePercent, extra.median,
        extra.halfRangePercent)
    }
    return [
      "# WeftPersistence vs raw sqlite3 (\(build); process CPU and wall time, median (±half "
        + "range) of \(rounds) interleaved rounds; file databases, WAL, synchronous=NORMAL)",
      "# reproduce: swift run -c release --package-path Tools/Benchmarks weft-bench persistence",
      line(
        "insert \(records) records in one transaction, store vs raw", "store insert",
        "raw insert", target: 2.0),
      line(
        "indexed fetch, \(categories) queries returning \(records) rows in one read, store "
          + "vs raw (Codable)", "store fetch", "raw fetch", target: 1.2),
      line(
        "the same fetch, fast path (RowDecodable), store vs raw", "store fetch fast", "raw fetch",
        target: 1.1),
      line(
        "Codable's floor: \(records) init(from:) through a keyed container that reads "
          + "nothing (no SQLite), vs the raw fetch", "codable floor", "raw fetch", target: nil),
      line(
        "the same fetch with one database.fetchAll call per query, store vs raw (one "
          + "transaction per query)", "store fetch per call", "raw fetch per transaction",
        target: nil),
      line(
        "the same with one database.readSynchronously call per query, store vs raw (one "
          + "transaction per query)", "store fetch per sync call", "raw fetch per transaction",
        target: 1.3),
      line(
        "the same, readSynchronously and the fast path, store vs raw (one transaction per "
          + "query)", "store fetch per sync call fast", "raw fetch per transaction", target: 1.3),
      hopLine(),
      line(
        "1000 one-row write transactions, no observer, store vs raw", "writes 0", "raw writes",
        target: 1.5),
      line(
        "the same with database.writeSynchronously, store vs raw", "sync writes", "raw writes",
        target: 1.5),
      line(
        "1000 one-row write transactions, 1 observer vs none", "writes 1", "writes 0",
        target: 2.0, andWall: true),
      line(
        "1000 one-row write transactions, 10 observers vs none", "writes 10", "writes 0",
        target: 2.0, andWall: true),
      String(
        format: "observation re-fetches per 1000 writes (median): 1 observer %.0f, 10 observers "
          + "%.0f (commits during a re-fetch coalesce)",
        BenchSpread(refetches["writes 1"] ?? []).median,
        BenchSpread(refetches["writes 10"] ?? []).median),
    ]
  }

  /// Runs one part 20 times for a profiler: `writes10`, `writes0` or `percall`.
  func profile(_ part: String) async throws -> [String] {
    let rows = benchRows()
    let folder = try scratchFolder("profile")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = "\(folder)/store.sqlite"
    _ = try await storeInserts(rows, path)
    let database = try await Database.open(at: path, migrations: Self.migrations)
    var samples: [BenchSample] = []
    let before = database.statistics
    for _ in 0..<20 {
      switch part {
      case "writes10": samples.append(try await writes(database, observers: 10))
      case "writes0": samples.append(try await writes(database, observers: 0))
      case "percall": samples.append(try await storeFetchesPerCall(database))
      case "synccall": samples.append(try await storeFetchesPerSynchronousCall(database))
      case "syncwrites": samples.append(try await synchronousWrites(database))
      case "fetch": samples.append(try await storeFetches(database))
      case "fastfetch": samples.append(try await storeFetches(database, fast: true))
      default:
        return [
          "unknown profile part \(part): writes10, writes0, syncwrites, percall, synccall, "
            + "fetch or fastfetch"
        ]
      }
    }
    let fetches = database.statistics.observationFetches - before.observationFetches
    await database.close()
    // The minimum as well: on a shared machine the median moves with the load, the least CPU
    // a run took much less, so comparing two builds' minimums shows smaller changes.
    let least = samples.map(\.cpu).min() ?? 0
    return [
      "profiled \(part) 20 times: CPU \(BenchSpread(samples.map(\.cpu)).milliseconds), "
        + String(format: "least %.1f ms", least * 1000) + ", wall "
        + "\(BenchSpread(samples.map(\.wall)).milliseconds), \(fetches / 20) observation "
        + "fetches per run"
    ]
  }

  /// The records both sides write: `records` rows over `categories` categories.
  private func benchRows() -> [BenchRecord] {
    (0..<records).map { id in
      BenchRecord(
        id: id, category: id % categories, name: "record \(id)", value: Double(id) * 0.5,
        createdAt: 1_700_000_000 + Double(id))
    }
  }

  /// A new folder `weft-persistence-KIND-UUID` in the temporary directory; the caller removes
  /// it.
  private func scratchFolder(_ kind: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-persistence-\(kind)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  // MARK: Store side

  private func storeInserts(_ rows: [BenchRecord], _ path: String) async throws -> BenchSample {
    let database = try await Database.open(at: path, migrations: Self.migrations)
    let (sample, _) = try await BenchSample.measure {
      try await database.write { tx in
        for row in rows { try tx.save(row) }
      }
    }
    await database.close()
    return sample
  }

  /// Every query inside one read transaction; with `fast`, decoded by position.
  private func storeFetches(_ database: Database, fast: Bool = false) async throws -> BenchSample {
    let categories = categories
    let (sample, count) = try await BenchSample.measure {
      try await database.read { db in
        var total = 0
        for category in 0..<categories {
          total +=
            fast
            ? try db.fetchAll(FastBenchRecord.self, where: Field("category") == category).count
            : try db.fetchAll(BenchRecord.self, where: Field("category") == category).count
        }
        return total
      }
    }
    precondition(count == records, "the store fetched every row")
    return sample
  }

  /// `records` calls of `BenchRecord.init(from:)` through a decoder whose keyed container
  /// returns constants, cached the way the store's is: what the standard library's
  /// `KeyedDecodingContainer` (its box's dispatch per field) costs before any column is
  /// read — the floor of any `Codable` fetch of this record.
  private func codableFloor() -> BenchSample {
    let decoder = FloorDecoder.erased()
    var total = 0
    let cpu = BenchSample.processCPUSeconds()
    let wall = ContinuousClock.now
    for _ in 0..<records {
      // try!: the floor decoder never throws; a throw would be a bug in this benchmark
      let record = try! BenchRecord(from: decoder)
      total &+= record.id
    }
    let elapsed = ContinuousClock.now - wall
    precondition(total == records, "every record decoded")
    return BenchSample(
      cpu: BenchSample.processCPUSeconds() - cpu,
      wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }

  /// One `database.fetchAll` per query: adds a hop to a reader connection per query.
  private func storeFetchesPerCall(_ database: Database) async throws -> BenchSample {
    let (sample, count) = try await BenchSample.measure {
      var total = 0
      for category in 0..<categories {
        total += try await database.fetchAll(
          BenchRecord.self, where: Field("category") == category
        ).count
      }
      return total
    }
    precondition(count == records, "the store fetched every row")
    return sample
  }

  /// One `database.readSynchronously` per query: a read transaction on the caller's thread;
  /// with `fast`, decoded by position.
  private func storeFetchesPerSynchronousCall(
    _ database: Database, fast: Bool = false
  ) async throws -> BenchSample {
    let (sample, count) = try await BenchSample.measure {
      var total = 0
      for category in 0..<categories {
        total += try database.readSynchronously { db in
          fast
            ? try db.fetchAll(FastBenchRecord.self, where: Field("category") == category).count
            : try db.fetchAll(BenchRecord.self, where: Field("category") == category).count
        }
      }
      return total
    }
    precondition(count == records, "the store fetched every row")
    return sample
  }

  /// 1000 `database.read` calls whose body reads nothing: the per-call floor.
  private func emptyReads(_ database: Database) async throws -> BenchSample {
    let (sample, total) = try await BenchSample.measure {
      var total = 0
      for index in 0..<1_000 { total += try await database.read { _ in index & 1 } }
      return total
    }
    precondition(total == 500, "every read ran")
    return sample
  }

  /// One-row write transactions while `observers` observations of the table are live, until
  /// every observer has seen the last one.
  private func writes(_ database: Database, observers: Int) async throws -> BenchSample {
    let streams = (0..<observers).map { _ in
      database.observe { db in try db.count(BenchRecord.self, where: Field("category") == -1) }
    }
    // Each consumer ends once it has seen the count after the last write; the measurement
    // includes that wait, so the observers' trailing re-fetches are counted too.
    let consumers = streams.map { stream in
      Task { for try await count in stream where count == 1_000 { break } }
    }
    let base = records
    let (sample, _) = try await BenchSample.measure {
      for index in 0..<1_000 {
        let row = BenchRecord(
          id: base + index, category: -1, name: "extra", value: 0, createdAt: 0)
        try await database.write { tx in try tx.save(row) }
      }
      for consumer in consumers { _ = try await consumer.value }
    }
    try await database.write { tx in
      try tx.delete(BenchRecord.self, where: Field("category") == -1)
    }
    return sample
  }

  /// 1000 one-row `writeSynchronously` transactions, no observer.
  private func synchronousWrites(_ database: Database) async throws -> BenchSample {
    let base = records
    let (sample, _) = try await BenchSample.measure {
      for index in 0..<1_000 {
        let row = BenchRecord(
          id: base + index, category: -1, name: "extra", value: 0, createdAt: 0)
        try database.writeSynchronously { tx in try tx.save(row) }
      }
    }
    try await database.write { tx in
      try tx.delete(BenchRecord.self, where: Field("category") == -1)
    }
    return sample
  }

  // MARK: Raw side

  private func rawInserts(_ rows: [BenchRecord], _ path: String) async throws -> BenchSample {
    let raw = try RawConnection(path: path)
    try raw.execute(Self.createTable)
    try raw.execute(Self.createIndex)
    let statement = try raw.prepare(Self.upsert)
    defer { sqlite3_finalize(statement) }
    let (sample, _) = try await BenchSample.measure {
      try raw.execute("BEGIN IMMEDIATE")
      for row in rows {
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, 1, Int64(row.id))
        sqlite3_bind_int64(statement, 2, Int64(row.category))
        var name = row.name
        name.withUTF8 { buffer in
          buffer.withMemoryRebound(to: CChar.self) {
            _ = sqlite3_bind_text(statement, 3, $0.baseAddress, Int32($0.count), benchTransient)
          }
        }
        sqlite3_bind_double(statement, 4, row.value)
        sqlite3_bind_double(statement, 5, row.createdAt)
        guard sqlite3_step(statement) == SQLITE_DONE else { throw raw.error() }
      }
      try raw.execute("COMMIT")
    }
    return sample
  }

  /// 1000 one-row write transactions (BEGIN IMMEDIATE, the upsert, COMMIT) of the rows the
  /// store's `writes` adds, removed afterwards.
  private func rawWrites(_ raw: RawConnection) async throws -> BenchSample {
    let statement = try raw.prepare(Self.upsert)
    defer { sqlite3_finalize(statement) }
    let base = records
    let (sample, _) = try await BenchSample.measure {
      for index in 0..<1_000 {
        try raw.execute("BEGIN IMMEDIATE")
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, 1, Int64(base + index))
        sqlite3_bind_int64(statement, 2, -1)
        sqlite3_bind_text(statement, 3, "extra", 5, benchTransient)
        sqlite3_bind_double(statement, 4, 0)
        sqlite3_bind_double(statement, 5, 0)
        guard sqlite3_step(statement) == SQLITE_DONE else { throw raw.error() }
        try raw.execute("COMMIT")
      }
    }
    try raw.execute("DELETE FROM bench WHERE category = -1")
    return sample
  }

  /// The indexed queries, all in one read transaction or (`perTransaction`) each in its own.
  private func rawFetches(
    _ raw: RawConnection, perTransaction: Bool = false
  ) async throws
    -> BenchSample
  {
    let statement = try raw.prepare(Self.select)
    defer { sqlite3_finalize(statement) }
    let categories = categories
    let (sample, total) = try await BenchSample.measure {
      if !perTransaction { try raw.execute("BEGIN") }
      var total = 0
      for category in 0..<categories {
        if perTransaction { try raw.execute("BEGIN") }
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, 1, Int64(category))
        var fetched: [BenchRecord] = []
        while sqlite3_step(statement) == SQLITE_ROW {
          let name = String(
            decoding: UnsafeBufferPointer(
              start: sqlite3_column_text(statement, 2),
              count: Int(sqlite3_column_bytes(statement, 2))), as: UTF8.self)
          fetched.append(
            BenchRecord(
              id: Int(sqlite3_column_int64(statement, 0)),
              category: Int(sqlite3_column_int64(statement, 1)), name: name,
              value: sqlite3_column_double(statement, 3),
              createdAt: sqlite3_column_double(statement, 4)))
        }
        total += fetched.count
        if perTransaction { try raw.execute("COMMIT") }
      }
      if !perTransaction { try raw.execute("COMMIT") }
      return total
    }
    precondition(total == records, "raw fetched every row")
    return sample
  }
}

/// The decoder of `codableFloor`: its keyed container returns 1, 1.0 and "x" for every key,
/// and is made once and handed out again for every record, as the store's `RowDecoder` does.
private final class FloorDecoder: Decoder {
  private var cachedKeyType: ObjectIdentifier?
  private var cachedContainer: AnyObject?
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// A floor decoder as `any Decoder`, made out of line so the caller cannot see (and
  /// devirtualize) its type: the store's fetch cannot either.
  @inline(never)
  static func erased() -> any Decoder { FloorDecoder() }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    if cachedKeyType == ObjectIdentifier(Key.self), let cachedContainer {
      return unsafeDowncast(cachedContainer, to: FloorHolder<KeyedDecodingContainer<Key>>.self)
        .value()
    }
    let container = KeyedDecodingContainer(FloorContainer<Key>())
    cachedContainer = FloorHolder(container)
    cachedKeyType = ObjectIdentifier(Key.self)
    return container
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw BenchError(message: "the floor decoder has keyed containers only")
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw BenchError(message: "the floor decoder has keyed containers only")
  }
}

/// Holds a container with its own type in its class metadata (as the store's
/// `ContainerHolder`), so handing it out again looks no metadata up.
private final class FloorHolder<Container> {
  private let container: Container
  init(_ container: Container) { self.container = container }
  @inline(never)
  func value() -> Container { container }
}

/// A keyed container that reads nothing.
private struct FloorContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { [] }
  func contains(_ key: Key) -> Bool { true }
  func decodeNil(forKey key: Key) throws -> Bool { false }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { 1 }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { 1 }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { "x" }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    throw BenchError(message: "the floor decoder reads Int, Double and String only")
  }
  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    throw BenchError(message: "no nested containers")
  }
  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw BenchError(message: "no nested containers")
  }
  func superDecoder() throws -> any Decoder { throw BenchError(message: "no super decoder") }
  func superDecoder(forKey key: Key) throws -> any Decoder {
    throw BenchError(message: "no super decoder")
  }
}

/// A bare connection with the store's settings (WAL, synchronous=NORMAL, foreign keys).
private final class RawConnection {
  let handle: OpaquePointer

  init(path: String) throws {
    var opened: OpaquePointer?
    guard
      sqlite3_open_v2(
        path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        == SQLITE_OK, let opened
    else { throw BenchError(message: "cannot open \(path)") }
    handle = opened
    try execute("PRAGMA journal_mode = WAL")
    try execute("PRAGMA synchronous = NORMAL")
    try execute("PRAGMA foreign_keys = ON")
  }

  deinit { sqlite3_close_v2(handle) }

  func prepare(_ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement
    else { throw error() }
    return statement
  }

  func execute(_ sql: String) throws {
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error() }
  }

  func error() -> BenchError { BenchError(message: String(cString: sqlite3_errmsg(handle))) }
}

private struct BenchError: Error { var message: String }

private let benchTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Median and half-range of samples.
private struct BenchSpread {
  var median: Double
  var halfRangePercent: Double

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    let range = (sorted.last ?? 0) - (sorted.first ?? 0)
    halfRangePercent = median == 0 ? 0 : range / 2 / median * 100
  }

  var milliseconds: String {
    String(format: "%.1f ms (±%.0f%%)", median * 1000, halfRangePercent)
  }

  var ratio: String { String(format: "%.2f× (±%.0f%%)", median, halfRangePercent) }
}
#else
/// The persistence benchmark needs the WeftPersistence product among the Benchmarks
/// target's dependencies.
func runPersistenceBenchmark() async throws -> [String] {
  [
    "persistence benchmark skipped: add .product(name: \"WeftPersistence\", package: "
      + "\"Weft\") to the Benchmarks target's dependencies"
  ]
}
#endif
