import Dispatch
import Foundation
import Testing
import WeftPersistence

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process writes transactions in a loop and is killed with SIGKILL at a random
/// point; the reopened database must hold every transaction that committed, no part of any
/// other, and pass `PRAGMA integrity_check`.
@Suite struct KillTests {
  struct Entry: PersistableRecord {
    static let tableName = "entry"
    var id: Int
    var batch: Int
    var payload: String
  }

  static let batchSize = 25

  static let migrations = [
    Migration(1, "entries and batches") { tx in
      try tx.execute(
        "CREATE TABLE entry (id INTEGER PRIMARY KEY, batch INTEGER NOT NULL, payload TEXT NOT NULL)"
      )
      try tx.createIndex(on: "entry", fields: ["batch"])
      try tx.execute("CREATE TABLE batch (id INTEGER PRIMARY KEY, size INTEGER NOT NULL)")
    }
  ]

  /// Kill points vary per run: after a random number of commits, plus a random busy wait
  /// (0–3 ms) while the writer keeps writing, so the signal lands inside a transaction,
  /// during a commit or between two.
  @Test(arguments: 0..<5)
  func aKilledWriterLosesNoCommittedTransaction(run: Int) async throws {
    let killAfter = Int.random(in: 2...30)
    let spin = Int.random(in: 0...3000)
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("kill.sqlite")
    let context = "run \(run): killed \(spin) µs after commit \(killAfter)"

    let result = await #expect(
      processExitsWith: .signal(SIGKILL), observing: [\.standardOutputContent], "\(context)"
    ) { [path = path as String, killAfter = killAfter as Int, spin = spin as Int] in
      try await KillTests.writeUntilKilled(path: path, killAfter: killAfter, spinMicroseconds: spin)
    }
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    let acknowledged = output.split(separator: "\n").compactMap { line in
      line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
    }
    #expect(acknowledged == Array(0..<acknowledged.count), "\(context)")
    #expect(acknowledged.count > killAfter, "\(context)")

    let database = try await Database.open(at: path, migrations: Self.migrations)
    #expect(try await database.integrityCheck() == ["ok"], "\(context)")
    let (batches, entriesPerBatch, keys) = try await database.read { db in
      let batches = try db.rows("SELECT id FROM batch ORDER BY id").map { $0[0] }
      let counts = try db.rows("SELECT batch, count(*) FROM entry GROUP BY batch ORDER BY batch")
        .map { [$0[0], $0[1]] }
      let keys = try db.rows("SELECT idempotency_key FROM weft_outbox ORDER BY id").map { $0[0] }
      return (batches, counts, keys)
    }
    let committed = batches.count
    // Every acknowledged transaction is there; at most one more (killed after its commit
    // but before it was reported).
    #expect(committed >= acknowledged.count && committed <= acknowledged.count + 1, "\(context)")
    #expect(batches == (0..<committed).map { .integer(Int64($0)) }, "\(context)")
    // No partial transaction: every committed batch has all its entries, no other has any.
    #expect(
      entriesPerBatch
        == (0..<committed).map { [.integer(Int64($0)), .integer(Int64(Self.batchSize))] },
      "\(context)")
    #expect(keys == (0..<committed).map { .text("batch-\($0)") }, "\(context)")
    let sample = try await database.fetch(Entry.self, id: (committed - 1) * Self.batchSize + 3)
    #expect(sample?.payload == String(repeating: "p", count: 103), "\(context)")
    await database.close()
  }

  /// The child's loop: one transaction per batch (its entries, a batch row and an outbox
  /// entry), reporting each commit on stdout; after commit `killAfter`, a second thread
  /// busy-waits `spinMicroseconds` and sends SIGKILL while the writes go on.
  static func writeUntilKilled(path: String, killAfter: Int, spinMicroseconds: Int) async throws {
    let database = try await Database.open(at: path, migrations: migrations)
    let armed = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      armed.wait()
      let deadline = ContinuousClock.now + .microseconds(spinMicroseconds)
      while ContinuousClock.now < deadline {}
      kill(getpid(), SIGKILL)
    }
    var batch = 0
    while true {
      let current = batch
      try await database.write { tx in
        for index in 0..<batchSize {
          try tx.save(
            Entry(
              id: current * batchSize + index, batch: current,
              payload: String(repeating: "p", count: 100 + index)))
        }
        try tx.execute(
          "INSERT INTO batch (id, size) VALUES (?1, ?2)",
          [.integer(Int64(current)), .integer(Int64(batchSize))])
        try tx.enqueue(
          .create, modelType: "batch", recordID: "\(current)", payload: Data(),
          idempotencyKey: "batch-\(current)")
      }
      // Unbuffered, so nothing reported is lost with the process.
      let line = Array("committed \(current)\n".utf8)
      _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
      if current == killAfter { armed.signal() }
      batch += 1
    }
  }
}
