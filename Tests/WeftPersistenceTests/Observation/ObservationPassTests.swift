import Dispatch
import Foundation
import Testing
import WeftPersistence

/// Re-fetches woken by a commit run together in one pass on one reader connection, in one
/// read transaction; a failing or misbehaving fetch ends only its own observation; a pass
/// with no free reader waits for one.
@Suite(.timeLimit(.minutes(5))) struct ObservationPassTests {
  struct Boom: Error, Equatable {}

  /// Reads the next value of every iterator.
  static func nextOfEach<Value: Sendable>(
    _ iterators: inout [AsyncThrowingStream<Value, any Error>.Iterator]
  ) async throws -> [Value?] {
    var values: [Value?] = []
    for index in iterators.indices { values.append(try await iterators[index].next()) }
    return values
  }

  /// Ten observations of one table, each with its own query, one commit: each re-fetches
  /// once, all in one read transaction (BEGIN, ten counts, COMMIT), not one transaction per
  /// observation.
  @Test func oneCommitRefetchesEveryObservationInOneTransaction() async throws {
    try await withFileDatabase { database, _ in
      var iterators = (0..<10).map { bound in
        database.observe(tables: ["metric"]) {
          try $0.count(Metric.self, where: Field("id") > -bound)
        }.makeAsyncIterator()
      }
      #expect(try await Self.nextOfEach(&iterators) == Array(repeating: 0, count: 10))
      await database.waitUntilObservationsSettle()
      let before = database.statistics

      try await database.save(Metric.sample(1))  // BEGIN IMMEDIATE, upsert, COMMIT
      #expect(try await Self.nextOfEach(&iterators) == Array(repeating: 1, count: 10))
      await database.waitUntilObservationsSettle()
      let after = database.statistics

      #expect(after.observationFetches - before.observationFetches == 10)
      #expect(after.observationDeliveries - before.observationDeliveries == 10)
      // 3 for the write, then 1 + 10 + 1 for the pass (one transaction per observation
      // would be 3 + 10 × 3).
      #expect(after.statements - before.statements == 3 + 12)
    }
  }

  /// A fetch that throws ends its own stream with its error; the others in the same pass
  /// (and the read transaction they share) carry on.
  @Test func aFailingFetchEndsOnlyItsOwnObservation() async throws {
    try await withFileDatabase { database, _ in
      var failing = database.observe(tables: ["metric"]) { db -> Int in
        let count = try db.count(Metric.self)
        if count == 1 { throw Boom() }
        return count
      }.makeAsyncIterator()
      var before = database.observe(tables: ["metric"]) { try $0.count(Metric.self) }
        .makeAsyncIterator()
      #expect(try await failing.next() == 0)
      #expect(try await before.next() == 0)
      var after = database.observe(tables: ["metric"]) { try $0.count(Metric.self) }
        .makeAsyncIterator()
      #expect(try await after.next() == 0)
      await database.waitUntilObservationsSettle()

      try await database.save(Metric.sample(1))
      await #expect(throws: Boom()) { try await failing.next() }
      #expect(try await before.next() == 1)
      #expect(try await after.next() == 1)
      try await database.save(Metric.sample(2))
      #expect(try await before.next() == 2)
      #expect(try await after.next() == 2)
      await database.waitUntilObservationsSettle()
      #expect(database.observationCount == 2)
    }
  }

  /// A fetch that ends the shared read transaction itself (raw COMMIT) is a misuse error
  /// for its own observation; the next fetch in the pass opens a transaction again.
  @Test func aFetchThatEndsTheTransactionFailsAloneWithMisuse() async throws {
    try await withFileDatabase { database, _ in
      var committing = database.observe(tables: ["metric"]) { db -> Int in
        let count = try db.count(Metric.self)
        if count == 1 { _ = try db.scalar("COMMIT") }
        return count
      }.makeAsyncIterator()
      #expect(try await committing.next() == 0)
      var other = database.observe(tables: ["metric"]) { try $0.count(Metric.self) }
        .makeAsyncIterator()
      #expect(try await other.next() == 0)
      await database.waitUntilObservationsSettle()

      try await database.save(Metric.sample(1))
      do {
        _ = try await committing.next()
        Issue.record("the committing fetch was delivered")
      } catch let error as PersistenceError where error.kind == .sqlite {
        #expect(error.sqliteCode == 21)  // SQLITE_MISUSE
        #expect(error.detail?.contains("ended the read transaction") == true)
      }
      #expect(try await other.next() == 1)
      try await database.save(Metric.sample(2))
      #expect(try await other.next() == 2)
      // Every reader is still usable: no transaction was left open.
      #expect(try await database.count(Metric.self) == 2)
    }
  }

  /// With every reader busy, the pass waits for one, then delivers the commit.
  @Test func aPassWaitsForABusyReader() async throws {
    var configuration = Database.Configuration()
    configuration.maximumReaders = 1
    try await withFileDatabase(configuration: configuration) { database, _ in
      var counts = database.observe(tables: ["metric"]) { try $0.count(Metric.self) }
        .makeAsyncIterator()
      #expect(try await counts.next() == 0)
      await database.waitUntilObservationsSettle()

      let gate = DispatchSemaphore(value: 0)
      let (entered, enter) = AsyncStream.makeStream(of: Void.self)
      let blocker = Task {
        try await database.read { _ in
          enter.yield()
          gate.wait()  // holds the only reader (on its own queue, not the cooperative pool)
        }
      }
      for await _ in entered { break }
      try await database.save(Metric.sample(1))
      gate.signal()
      try await blocker.value
      #expect(try await counts.next() == 1)
    }
  }

  /// Commits that land while a pass runs cause one more re-fetch after it, never a lost one.
  @Test func commitsDuringAPassAreSeenAfterIt() async throws {
    try await withFileDatabase { database, _ in
      let gate = DispatchSemaphore(value: 0)
      let (entered, enter) = AsyncStream.makeStream(of: Void.self)
      var counts = database.observe(tables: ["metric"]) { db -> Int in
        let count = try db.count(Metric.self)
        if count == 1 {
          enter.yield()
          gate.wait()  // the pass is running: commit meanwhile
        }
        return count
      }.makeAsyncIterator()
      #expect(try await counts.next() == 0)
      try await database.save(Metric.sample(1))
      for await _ in entered { break }
      try await database.save(Metric.sample(2))
      try await database.save(Metric.sample(3))
      gate.signal()
      // The stream buffers the newest value only, so 1 may be replaced by 3 before it is
      // read; 3 must come, after exactly one more fetch for both commits.
      var last = try await counts.next()
      if last == 1 { last = try await counts.next() }
      #expect(last == 3)
      await database.waitUntilObservationsSettle()
      #expect(database.statistics.observationFetches == 3)
    }
  }
}
