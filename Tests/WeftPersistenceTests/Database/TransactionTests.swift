import Dispatch
import Foundation
import Testing
import WeftPersistence

@Suite struct TransactionTests {
  struct Abort: Error {}

  @Test func aThrowingWriteIsRolledBack() async throws {
    try await withFileDatabase { database, _ in
      await #expect(throws: Abort.self) {
        try await database.write { tx in
          try tx.save(Metric.sample(1))
          try tx.enqueue(.create, Metric.sample(1))
          throw Abort()
        }
      }
      let metrics = try await database.count(Metric.self)
      let pending = try await database.outbox.pendingCount()
      #expect(metrics == 0)
      #expect(pending == 0)
      #expect(database.statistics.rollbacks == 1)
    }
  }

  @Test func writesSeeTheirOwnChangesAndReturnValues() async throws {
    try await withFileDatabase { database, _ in
      let counted = try await database.write { tx in
        try tx.save(contentsOf: (1...5).map { Metric.sample($0) })
        try tx.delete(Metric.self, id: 2)
        return try tx.count(Metric.self)
      }
      #expect(counted == 4)
      #expect(try await database.delete(Metric.self, id: 3))
      #expect(try await !database.delete(Metric.self, id: 3))
      let removed = try await database.write { try $0.delete(Metric.self, where: Field("id") > 3) }
      #expect(removed == 2)
      #expect(try await database.fetchAll(Metric.self).map(\.id) == [1])
    }
  }

  @Test func endingTheTransactionInsideTheClosureIsRefused() async throws {
    try await withFileDatabase { database, folder in
      await #expect(throws: PersistenceError.self) {
        try await database.write { tx in
          try tx.save(Metric.sample(1))
          try tx.execute("COMMIT")
        }
      }
      // The database is still usable afterwards.
      try await database.save(Metric.sample(2))
      #expect(try await database.count(Metric.self) >= 1)
      _ = folder
    }
  }

  /// WAL: a read runs while a write transaction is open, and sees the last committed state.
  @Test func readsRunConcurrentlyWithAWrite() async throws {
    try await withFileDatabase { database, _ in
      try await database.save(Metric.sample(1))
      let writeIsOpen = DispatchSemaphore(value: 0)
      let readIsDone = DispatchSemaphore(value: 0)
      async let writing: Bool = database.write { tx in
        try tx.save(Metric.sample(2))
        writeIsOpen.signal()
        // Blocks the writer's own queue (not the cooperative pool) until the read is done;
        // a read that had to wait for this write would never finish: time out instead (after
        // 120 s, which only a broken run reaches; 10 s could be reached by a loaded one).
        return readIsDone.wait(timeout: .now() + 120) == .success
      }
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          writeIsOpen.wait()
          continuation.resume()
        }
      }
      let seen = try await database.fetchAll(Metric.self).map(\.id)
      readIsDone.signal()
      #expect(seen == [1])
      #expect(try await writing)
      #expect(try await database.fetchAll(Metric.self).map(\.id) == [1, 2])
    }
  }

  @Test func manyConcurrentCallersAllGetServed() async throws {
    var configuration = Database.Configuration()
    configuration.maximumReaders = 2
    try await withFileDatabase(configuration: configuration) { database, _ in
      try await withThrowingTaskGroup(of: Void.self) { group in
        for id in 1...50 {
          group.addTask { try await database.save(Metric.sample(id)) }
          group.addTask { _ = try await database.count(Metric.self) }
        }
        try await group.waitForAll()
      }
      #expect(try await database.count(Metric.self) == 50)
      #expect(database.statistics.commits >= 50)
    }
  }

  @Test func statisticsCountStatementsExactly() async throws {
    let database = try await Database.inMemory(migrations: TestSchema.all)
    let before = database.statistics
    try await database.write { tx in
      try tx.save(contentsOf: (1...10).map { Metric.sample($0) })
    }
    let after = database.statistics
    // BEGIN, ten upserts, COMMIT.
    #expect(after.statements - before.statements == 12)
    #expect(after.commits - before.commits == 1)
  }

  /// `journal_size_limit` and checkpoints keep the WAL bounded.
  @Test func theWALStaysBounded() async throws {
    var configuration = Database.Configuration()
    configuration.journalSizeLimit = 64 * 1024
    configuration.autoCheckpointPages = 64
    try await withFileDatabase(configuration: configuration) { database, folder in
      let wal = folder.file("test.sqlite-wal")
      func walSize() throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
      }
      var largest = 0
      for batch in 0..<40 {
        try await database.write { tx in
          try tx.save(
            contentsOf: (0..<50).map {
              Metric.sample(batch * 50 + $0, note: String(repeating: "x", count: 400))
            })
        }
        largest = max(largest, try walSize())
      }
      // 64 pages of 4 KiB between checkpoints, plus one transaction's pages.
      #expect(largest < 600 * 1024, "the WAL grew to \(largest) bytes")
      let result = try await database.checkpoint(.truncate)
      #expect(result.completed)
      #expect(try walSize() == 0)
    }
  }

  @Test func integrityCheckReportsOK() async throws {
    try await withFileDatabase { database, _ in
      try await database.save(Metric.sample(1))
      #expect(try await database.integrityCheck() == ["ok"])
    }
  }
}
