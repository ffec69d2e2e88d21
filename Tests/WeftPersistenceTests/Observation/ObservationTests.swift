import Foundation
import Synchronization
import Testing
import WeftPersistence

/// Observed fetches: re-delivered after commits to their tables, coalesced, never missing
/// the last commit, run off the MainActor, and gone when their consumer goes.
@Suite(.timeLimit(.minutes(5))) struct ObservationTests {
  static let allMetrics = FetchDescriptor<Metric>(sortBy: [.ascending("id")])

  /// Reads values from `stream` until one satisfies `condition`; returns how many it read.
  static func next<Value>(
    _ iterator: inout AsyncThrowingStream<Value, any Error>.Iterator,
    until condition: (Value) -> Bool
  ) async throws -> Int {
    var seen = 0
    while let value = try await iterator.next() {
      seen += 1
      if condition(value) { return seen }
    }
    Issue.record("the stream ended before the expected value")
    return seen
  }

  @Test func deliversNowThenAfterEachCommitToItsTable() async throws {
    try await withFileDatabase { database, _ in
      var values = database.observe(Self.allMetrics).makeAsyncIterator()
      #expect(try await values.next()?.map(\.id) == [])
      try await database.save(Metric.sample(1))
      #expect(try await values.next()?.map(\.id) == [1])
      try await database.write { tx in
        try tx.save(Metric.sample(2))
        try tx.delete(Metric.self, id: 1)
      }
      #expect(try await values.next()?.map(\.id) == [2])
    }
  }

  @Test func commitsToOtherTablesCostNothing() async throws {
    try await withFileDatabase { database, _ in
      var values = database.observe(Self.allMetrics).makeAsyncIterator()
      _ = try await values.next()
      for index in 0..<3 {
        try await database.save(Todo(id: UUID(), title: "\(index)", done: false))
      }
      try await database.save(Metric.sample(7))
      #expect(try await values.next()?.map(\.id) == [7])
      #expect(database.statistics.observationFetches == 2)
      #expect(database.statistics.observationDeliveries == 2)
    }
  }

  /// A burst of commits coalesces; the value after the last one always arrives.
  @Test func aBurstIsCoalescedButNeverLosesTheLastCommit() async throws {
    try await withFileDatabase { database, _ in
      var counts = database.observe { try $0.count(Metric.self) }.makeAsyncIterator()
      #expect(try await counts.next() == 0)
      for id in 1...100 { try await database.save(Metric.sample(id)) }
      let read = try await Self.next(&counts) { $0 == 100 }
      #expect(read <= 100)
      // At most one re-fetch per commit, plus two for the first value: the fetch declared
      // no table, so its first run registers "metric" and runs again before delivering.
      // (Commits during a re-fetch coalesce into one more: `commitsDuringAPassAreSeenAfterIt`
      // pins that exactly.)
      #expect(database.statistics.observationFetches <= 102)
    }
  }

  /// Commits that land while the subscription is being set up are not missed.
  @Test func commitsDuringSetupAreSeen() async throws {
    let database = try await Database.inMemory(migrations: TestSchema.all)
    let stream = database.observe { try $0.count(Metric.self) }
    try await database.save(Metric.sample(1))
    var counts = stream.makeAsyncIterator()
    _ = try await Self.next(&counts) { $0 == 1 }
  }

  @Test func aHundredObservationsAllSeeTheLastWrite() async throws {
    try await withFileDatabase { database, _ in
      try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<100 {
          let stream = database.observe { try $0.count(Metric.self) }
          group.addTask {
            var counts = stream.makeAsyncIterator()
            return try await Self.next(&counts) { $0 == 5 }
          }
        }
        for id in 1...5 { try await database.save(Metric.sample(id)) }
        var finished = 0
        for try await _ in group { finished += 1 }
        #expect(finished == 100)
      }
      await database.waitUntilObservationsEnd()
      #expect(database.observationCount == 0)
    }
  }

  /// Raw SQL names no table; SQLite's authorizer tells which tables it reads.
  @Test func rawSQLIsObservedThroughTheTablesItReads() async throws {
    try await withFileDatabase { database, _ in
      var titles = database.observe { db in
        try db.rows("SELECT title FROM todo ORDER BY title").map { $0["title"] }
      }.makeAsyncIterator()
      #expect(try await titles.next() == [])
      try await database.save(Todo(id: UUID(), title: "a", done: false))
      #expect(try await titles.next() == [.text("a")])
    }
  }

  @Test func countStarIsObserved() async throws {
    try await withFileDatabase { database, _ in
      var counts = database.observe { db in try db.scalar("SELECT count(*) FROM todo") }
        .makeAsyncIterator()
      #expect(try await counts.next() == .integer(0))
      try await database.save(Todo(id: UUID(), title: "a", done: false))
      #expect(try await counts.next() == .integer(1))
    }
  }

  @Test func equalValuesAreDeliveredUnlessSuppressed() async throws {
    try await withFileDatabase { database, _ in
      try await database.save(Metric.sample(1))
      var every = database.observe { try $0.count(Metric.self) }.makeAsyncIterator()
      var distinct = database.observe(isDuplicate: ==) { try $0.count(Metric.self) }
        .makeAsyncIterator()
      #expect(try await every.next() == 1)
      #expect(try await distinct.next() == 1)
      try await database.save(Metric.sample(1, value: 99))  // same count
      #expect(try await every.next() == 1)
      try await database.save(Metric.sample(2))
      #expect(try await every.next() == 2)
      #expect(try await distinct.next() == 2)  // the equal re-fetch was not delivered
    }
  }

  @Test func fetchesRunOffTheMainThread() async throws {
    let onMain = Mutex<[Bool]>([])
    try await withFileDatabase { database, _ in
      var values = database.observe { db in
        onMain.withLock { $0.append(Thread.isMainThread) }
        return try db.count(Metric.self)
      }.makeAsyncIterator()
      _ = try await values.next()
    }
    let threads = onMain.withLock { $0 }
    #expect(!threads.isEmpty)
    #expect(threads.allSatisfy { !$0 })
  }

  @Test func aConsumerThatLeavesLeavesNothingBehind() async throws {
    try await withFileDatabase { database, _ in
      func readOneValue() async throws {
        for try await _ in database.observe(Self.allMetrics) { break }
      }
      try await readOneValue()
      await database.waitUntilObservationsEnd()
      #expect(database.observationCount == 0)
      try await database.save(Metric.sample(1))  // wakes nobody
      #expect(database.statistics.observationFetches == 1)
    }
  }

  @Test func closingTheDatabaseEndsItsObservations() async throws {
    let database = try await Database.inMemory(migrations: TestSchema.all)
    var values = database.observe(Self.allMetrics).makeAsyncIterator()
    _ = try await values.next()
    await database.close()
    #expect(try await values.next() == nil)
    var late = database.observe(Self.allMetrics).makeAsyncIterator()
    await #expect(throws: PersistenceError.closed(path: ":memory:")) { try await late.next() }
  }

  @Test func aFailingFetchEndsTheStreamWithItsError() async throws {
    try await withFileDatabase(migrations: [TestSchema.createMetric]) { database, folder in
      var values = database.observe(FetchDescriptor<Todo>()).makeAsyncIterator()
      await #expect(
        throws: PersistenceError.schemaMismatch(
          path: folder.file("test.sqlite"), table: "todo", detail: "the table does not exist")
      ) { try await values.next() }
    }
  }
}
