import Foundation
import Synchronization
import Testing
import WeftPersistence

@Suite struct OutboxTests {
  @Test func aRecordAndItsOperationAreSavedTogether() async throws {
    let now = TestNow()
    try await withFileDatabase(configuration: .testing(now: now)) { database, _ in
      let entry = try await database.write { tx in
        try tx.save(Metric.sample(1))
        return try tx.enqueue(.create, Metric.sample(1), idempotencyKey: "k1")
      }
      let pending = try await database.outbox.pending()
      #expect(pending == [entry])
      #expect(entry.operation == .create)
      #expect(entry.modelType == "metric")
      #expect(entry.recordID == "1")
      #expect(entry.nextAttemptAt == now.date)
      #expect(try entry.decodePayload(as: Metric.self) == Metric.sample(1))
    }
  }

  @Test func aReusedIdempotencyKeyIsAConstraintViolation() async throws {
    try await withFileDatabase { database, folder in
      try await database.write { tx in
        try tx.enqueue(.create, Metric.sample(1), idempotencyKey: "same")
      }
      await #expect(
        throws: PersistenceError.constraintViolation(
          path: folder.file("test.sqlite"), table: "weft_outbox", id: "same",
          detail: "UNIQUE constraint failed: weft_outbox.idempotency_key")
      ) {
        try await database.write { tx in
          try tx.save(Metric.sample(2))
          try tx.enqueue(.create, Metric.sample(2), idempotencyKey: "same")
        }
      }
      // The record saved in the failed transaction was rolled back with it.
      let metrics = try await database.count(Metric.self)
      #expect(metrics == 0)
    }
  }

  /// Dequeue leases entries oldest first; acknowledge removes; a second dequeue does not
  /// return leased entries; one record's entries go one at a time, in order.
  @Test func dequeueLeasesDueEntriesInOrder() async throws {
    let now = TestNow()
    try await withFileDatabase(configuration: .testing(now: now)) { database, _ in
      try await database.write { tx in
        try tx.enqueue(.create, Metric.sample(1), idempotencyKey: "1-create")
        try tx.enqueue(.create, Metric.sample(2), idempotencyKey: "2-create")
        try tx.enqueue(.update, Metric.sample(1), idempotencyKey: "1-update")
        try tx.enqueueDeletion(of: Metric.self, id: 2, idempotencyKey: "2-delete")
      }
      let first = try await database.outbox.dequeue()
      #expect(first.map(\.idempotencyKey) == ["1-create", "2-create"])
      #expect(try await database.outbox.dequeue().isEmpty)
      #expect(try await database.outbox.acknowledge(first[0]))
      #expect(try await !database.outbox.acknowledge(first[0]))
      let second = try await database.outbox.dequeue()
      #expect(second.map(\.idempotencyKey) == ["1-update"])
      #expect(try await database.outbox.acknowledge(first[1]))
      let third = try await database.outbox.dequeue()
      #expect(third.map(\.idempotencyKey) == ["2-delete"])
      #expect(try third[0].decodePayload(as: Int.self) == 2)
      #expect(try await database.outbox.pendingCount() == 2)
    }
  }

  /// Time (s):      0      10     30     70
  /// Attempt:       1✗     2✗     3✗
  /// Outcome:      +10    +20    dead
  @Test func failuresBackOffThenDeadLetter() async throws {
    let now = TestNow()
    try await withFileDatabase(configuration: .testing(now: now, maximumAttempts: 3)) {
      database, _ in
      try await database.write { tx in
        try tx.enqueue(.create, Metric.sample(1), idempotencyKey: "k")
      }
      var entry = try #require(try await database.outbox.dequeue().first)
      let start = now.date
      #expect(
        try await database.outbox.fail(entry, error: "503")
          == .retryScheduled(attempts: 1, at: start + 10))
      #expect(try await database.outbox.dequeue().isEmpty)
      #expect(try await database.outbox.nextAttemptDate() == start + 10)
      now.advance(by: 10)
      entry = try #require(try await database.outbox.dequeue().first)
      #expect(entry.attempts == 1)
      #expect(entry.lastError == "503")
      #expect(
        try await database.outbox.fail(entry, error: "timeout")
          == .retryScheduled(attempts: 2, at: start + 30))
      now.advance(by: 20)
      entry = try #require(try await database.outbox.dequeue().first)
      #expect(try await database.outbox.fail(entry, error: "500") == .deadLettered(attempts: 3))
      now.advance(by: 10_000)
      #expect(try await database.outbox.dequeue().isEmpty)
      #expect(try await database.outbox.pendingCount() == 0)
      let dead = try await database.outbox.deadLetters()
      #expect(dead.map(\.lastError) == ["500"])
      #expect(dead.first?.deadLetteredAt == start + 30)

      try await database.outbox.requeue(dead[0])
      let revived = try await database.outbox.dequeue()
      #expect(revived.map(\.attempts) == [0])
      try await database.outbox.fail(revived[0], error: "again")
      #expect(try await database.outbox.purgeDeadLetters() == 0)
      #expect(try await database.outbox.pendingCount() == 1)
    }
  }

  @Test func failingAnUnknownEntryIsAnError() async throws {
    try await withFileDatabase { database, folder in
      await #expect(
        throws: PersistenceError.outboxEntryNotFound(path: folder.file("test.sqlite"), id: 42)
      ) {
        try await database.outbox.fail(id: 42, error: "x")
      }
    }
  }

  @Test func anExpiredLeaseMakesTheEntryDueAgain() async throws {
    let now = TestNow()
    try await withFileDatabase(configuration: .testing(now: now)) { database, _ in
      try await database.write { tx in
        try tx.enqueue(.create, Metric.sample(1), idempotencyKey: "k")
      }
      #expect(try await database.outbox.dequeue().count == 1)
      now.advance(by: 59)
      #expect(try await database.outbox.dequeue().isEmpty)
      now.advance(by: 1)
      #expect(try await database.outbox.dequeue().map(\.idempotencyKey) == ["k"])
    }
  }

  /// A server that applies each idempotency key once.
  final class IdempotentServer: Sendable {
    private let state = Mutex<(applied: [String], received: Int)>(([], 0))
    func receive(_ entry: OutboxEntry) {
      state.withLock { state in
        state.received += 1
        if !state.applied.contains(entry.idempotencyKey) {
          state.applied.append(entry.idempotencyKey)
        }
      }
    }
    var applied: [String] { state.withLock { $0.applied } }
    var received: Int { state.withLock { $0.received } }
  }

  /// The app dies after the server applied some operations but before it acknowledged
  /// them: after a relaunch every operation is delivered at least once and applied once.
  @Test func replayAfterACrashAppliesEveryOperationExactlyOnce() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("app.sqlite")
    let now = TestNow()
    let server = IdempotentServer()
    let keys = (1...6).map { "op-\($0)" }

    let first = try await Database.open(
      at: path, migrations: TestSchema.all, configuration: .testing(now: now))
    try await first.write { tx in
      for (offset, key) in keys.enumerated() {
        let metric = Metric.sample(offset + 1)
        try tx.save(metric)
        try tx.enqueue(.create, metric, idempotencyKey: key)
      }
    }
    let inFlight = try await first.outbox.dequeue(limit: 4)
    for entry in inFlight { server.receive(entry) }
    try await first.outbox.acknowledge(inFlight[0])
    await first.close()  // the "crash": three applied entries never acknowledged

    let second = try await Database.open(
      at: path, migrations: TestSchema.all, configuration: .testing(now: now))
    while case let batch = try await second.outbox.dequeue(limit: 2), !batch.isEmpty {
      for entry in batch {
        server.receive(entry)
        try await second.outbox.acknowledge(entry)
      }
    }
    #expect(server.applied.sorted() == keys)
    #expect(server.received == 4 + 5)
    #expect(try await second.outbox.pendingCount() == 0)
    await second.close()
  }
}

extension Date {
  fileprivate static func + (date: Date, seconds: Double) -> Date {
    date.addingTimeInterval(seconds)
  }
}
