import Dispatch
import Foundation
import Synchronization
import Testing
import WeftPersistence

/// Observations running the identical library query (same SQL, same values, same result
/// type) in one pass share one execution, and each still gets every change; different
/// queries are never confused; an observation of a table no commit wrote is not re-run.
/// All on a real SQLite file.
@Suite(.timeLimit(.minutes(5))) struct ObservationSharingTests {
  /// Ten observations of the same count: each gets every commit's value, in order, and a
  /// pass runs the count once (BEGIN, one count, COMMIT) instead of ten times.
  @Test func observersOfOneQueryEachGetEveryChangeFromOneExecution() async throws {
    try await withFileDatabase { database, _ in
      var iterators = (0..<10).map { _ in
        database.observe { try $0.count(Metric.self) }.makeAsyncIterator()
      }
      #expect(
        try await ObservationPassTests.nextOfEach(&iterators) == Array(repeating: 0, count: 10))
      for id in 1...5 {
        await database.waitUntilObservationsSettle()
        let before = database.statistics
        try await database.save(Metric.sample(id))  // BEGIN IMMEDIATE, upsert, COMMIT
        #expect(
          try await ObservationPassTests.nextOfEach(&iterators)
            == Array(repeating: id, count: 10))
        await database.waitUntilObservationsSettle()
        let after = database.statistics
        #expect(after.observationFetches - before.observationFetches == 10)
        #expect(after.observationDeliveries - before.observationDeliveries == 10)
        #expect(after.statements - before.statements == 3 + 3)
      }
    }
  }

  /// Observers of one `fetchAll` get equal records from one SELECT per pass.
  @Test func observersOfOneFetchShareItsRecords() async throws {
    try await withFileDatabase { database, _ in
      let descriptor = FetchDescriptor<Metric>(sortBy: [.ascending("id")])
      var first = database.observe(descriptor).makeAsyncIterator()
      var second = database.observe(descriptor).makeAsyncIterator()
      #expect(try await first.next() == [])
      #expect(try await second.next() == [])
      await database.waitUntilObservationsSettle()
      let before = database.statistics
      try await database.write { tx in
        try tx.save(Metric.sample(1))
        try tx.save(Metric.sample(2))
      }
      let expected = [Metric.sample(1), Metric.sample(2)]
      #expect(try await first.next() == expected)
      #expect(try await second.next() == expected)
      await database.waitUntilObservationsSettle()
      // BEGIN IMMEDIATE, two upserts, COMMIT; then BEGIN, one SELECT, COMMIT.
      #expect(database.statistics.statements - before.statements == 4 + 3)
    }
  }

  /// The same SQL with different values, or a different query, is never shared.
  @Test func differentValuesAreNotShared() async throws {
    try await withFileDatabase { database, _ in
      var one = database.observe { try $0.count(Metric.self, where: Field("id") == 1) }
        .makeAsyncIterator()
      var two = database.observe { try $0.count(Metric.self, where: Field("id") == 2) }
        .makeAsyncIterator()
      var byID = database.observe { try $0.fetch(Metric.self, id: 2)?.id }.makeAsyncIterator()
      var all = database.observe { try $0.count(Metric.self) }.makeAsyncIterator()
      #expect(try await one.next() == 0)
      #expect(try await two.next() == 0)
      #expect(try await byID.next() == .some(nil))
      #expect(try await all.next() == 0)
      try await database.write { tx in
        try tx.save(Metric.sample(2))
        try tx.save(Metric.sample(3))
      }
      #expect(try await one.next() == 0)
      #expect(try await two.next() == 1)
      #expect(try await byID.next() == 2)
      #expect(try await all.next() == 2)
    }
  }

  /// An observation that got a shared result still watches the tables the query read: two
  /// observations that declare no tables both learn `metric` from one execution, and both
  /// see the next commit.
  @Test func aSharedResultStillWidensTheRegion() async throws {
    try await withFileDatabase { database, _ in
      var first = database.observe { try $0.count(Metric.self) }.makeAsyncIterator()
      var second = database.observe { try $0.count(Metric.self) }.makeAsyncIterator()
      #expect(try await first.next() == 0)
      #expect(try await second.next() == 0)
      try await database.save(Metric.sample(1))
      #expect(try await first.next() == 1)
      #expect(try await second.next() == 1)
    }
  }

  /// Commits to `metric` never re-run an observation of `todo`, even while another
  /// observation of `metric` is re-run after each of them.
  @Test func anObservationOfAnUnwrittenTableIsNotRerun() async throws {
    try await withFileDatabase { database, _ in
      let todoFetches = Atomic<Int>(0)
      // Declared, so the first fetch is not repeated to learn its region.
      var todos = database.observe(tables: ["todo"]) { db -> Int in
        todoFetches.add(1, ordering: .relaxed)
        return try db.count(Todo.self)
      }.makeAsyncIterator()
      var metrics = database.observe { try $0.count(Metric.self) }.makeAsyncIterator()
      #expect(try await todos.next() == 0)
      #expect(try await metrics.next() == 0)
      for id in 1...5 {
        try await database.save(Metric.sample(id))
        #expect(try await metrics.next() == id)
      }
      await database.waitUntilObservationsSettle()
      #expect(todoFetches.load(ordering: .relaxed) == 1)
      try await database.save(Todo(id: UUID(), title: "one", done: false))
      #expect(try await todos.next() == 1)
      #expect(todoFetches.load(ordering: .relaxed) == 2)
    }
  }

  /// A commit landing while its observation is being re-fetched starts a burst: the next
  /// pass waits for `observationBurstInterval` (checked as a lower bound, never as a speed),
  /// then delivers the value after the last commit, once for all of the burst's commits.
  @Test func aBurstIsPacedAndStillDeliversTheLastCommit() async throws {
    var configuration = Database.Configuration()
    configuration.observationBurstInterval = .seconds(1)
    try await withFileDatabase(configuration: configuration) { database, _ in
      let gate = DispatchSemaphore(value: 0)
      let (entered, enter) = AsyncStream.makeStream(of: Void.self)
      var counts = database.observe(tables: ["metric"]) { db -> Int in
        let count = try db.count(Metric.self)
        if count == 1 {
          enter.yield()
          gate.wait()  // the pass is running (on a reader's queue): commit meanwhile
        }
        return count
      }.makeAsyncIterator()
      #expect(try await counts.next() == 0)
      try await database.save(Metric.sample(1))
      for await _ in entered { break }
      try await database.save(Metric.sample(2))  // lands during the pass: a burst
      let committed = ContinuousClock.now
      try await database.save(Metric.sample(3))
      gate.signal()
      let seen = try await ObservationTests.next(&counts) { $0 == 3 }
      #expect(seen <= 2)
      #expect(ContinuousClock.now - committed >= .milliseconds(900))
      await database.waitUntilObservationsSettle()
      #expect(database.statistics.observationFetches == 3)
    }
  }

  /// Commits that land while no re-fetch of their observation runs are re-fetched at once,
  /// however long the burst interval: pacing never delays an isolated commit.
  @Test func isolatedCommitsAreNotPaced() async throws {
    var configuration = Database.Configuration()
    configuration.observationBurstInterval = .seconds(3600)
    try await withFileDatabase(configuration: configuration) { database, _ in
      var counts = database.observe(tables: ["metric"]) { try $0.count(Metric.self) }
        .makeAsyncIterator()
      #expect(try await counts.next() == 0)
      for id in 1...5 {
        await database.waitUntilObservationsSettle()
        try await database.save(Metric.sample(id))
        #expect(try await counts.next() == id)
      }
    }
  }
}
