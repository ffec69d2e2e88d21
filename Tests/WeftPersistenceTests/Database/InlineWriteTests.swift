import Foundation
import Synchronization
import Testing

@testable import WeftPersistence

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An async `write` that finds the writer idle runs on the calling task's thread; one that
/// does not (a write in progress, another process holding the write lock) goes to the
/// writer's queue, commits after what held it, and wakes observers as before.
@Suite struct InlineWriteTests {
  @Test func anIdleWriterRunsAnAsyncWriteOnTheCallingThread() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Library.library(folder)
    var names = database.observe { db in
      try db.fetchAll(Author.self, sortBy: [.ascending("id")]).map(\.name)
    }.makeAsyncIterator()
    #expect(try await names.next() == ["O'Brien", "Le Guin"])
    let queuedBefore = database.writer.queuedWrites.load(ordering: .relaxed)
    let caller = currentThread()
    let inBody = try await database.write { tx in
      try tx.save(Author(id: 3, name: "Jansson"))
      return currentThread()
    }
    #expect(inBody == caller)
    #expect(database.writer.queuedWrites.load(ordering: .relaxed) == queuedBefore)
    #expect(try await names.next() == ["O'Brien", "Le Guin", "Jansson"])
    // A body returning `nil` ran once and its `nil` is the result (not "writer busy").
    let runs = Atomic<Int>(0)
    let missing: Author? = try await database.write { tx in
      runs.add(1, ordering: .relaxed)
      return try tx.fetch(Author.self, id: 99)
    }
    #expect(missing == nil)
    #expect(runs.load(ordering: .relaxed) == 1)
    #expect(database.writer.queuedWrites.load(ordering: .relaxed) == queuedBefore)
    // A throwing body rolls back, inline too.
    await #expect(throws: PersistenceError.self) {
      try await database.write { tx in
        try tx.save(Author(id: 4, name: "Rolled back"))
        try tx.execute("INSERT INTO author (id, name) VALUES (1, 'duplicate id')")
      }
    }
    #expect(try await database.fetch(Author.self, id: 4) == nil)
    await database.close()
    await #expect(throws: PersistenceError.closed(path: database.path)) {
      try await database.write { tx in try tx.save(Author(id: 5, name: "Closed")) }
    }
  }

  @Test func concurrentWritesEachCommitOnceAndTheWriterIsIdleAfterwards() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Library.library(folder)
    var counts = database.observe { db in try db.count(Book.self) }.makeAsyncIterator()
    #expect(try await counts.next() == 4)
    // Inline and queued writes mixed: 200 tasks at once, plus a synchronous writer thread.
    let done = Gate()
    let synchronous = Thread {
      for index in 0..<50 {
        try? database.writeSynchronously { tx in
          try tx.save(Book(id: 1_000 + index, authorId: 1, title: "sync \(index)"))
        }
      }
      done.entered.store(true, ordering: .releasing)
    }
    synchronous.start()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<200 {
        group.addTask {
          try await database.write { tx in
            try tx.save(Book(id: 100 + index, authorId: 2, title: "async \(index)"))
          }
        }
      }
      try await group.waitForAll()
    }
    while !done.entered.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
    #expect(try await database.count(Book.self) == 254)
    var last = 0
    while last != 254 { last = try await counts.next() ?? -1 }
    // Every queued write was counted out: the next write runs inline again.
    let queued = database.writer.queuedWrites.load(ordering: .relaxed)
    try await database.write { tx in try tx.save(Author(id: 3, name: "Jansson")) }
    #expect(database.writer.queuedWrites.load(ordering: .relaxed) == queued)
    await database.close()
  }

  @MainActor @Test func aWriteFromTheMainActorRunsOffTheMainThread() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Library.library(folder)
    let onMain = try await database.write { tx in
      try tx.save(Author(id: 3, name: "Jansson"))
      return Thread.isMainThread
    }
    #expect(onMain == false)
    await database.close()
  }

  @Test func aWriteWhileTheWriterIsBusyIsQueuedAndCommitsAfterIt() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Library.library(folder)
    var titles = database.observe { db in try db.fetch(Book.self, id: 10)?.title }
      .makeAsyncIterator()
    #expect(try await titles.next() == "At Swim")
    // Another thread holds the writer in a synchronous write until released.
    let gate = Gate()
    let holder = Thread {
      try? database.writeSynchronously { tx in
        _ = try tx.execute(sql: "UPDATE book SET title = 'first' WHERE id = \(10)")
        gate.entered.store(true, ordering: .releasing)
        while !gate.released.load(ordering: .acquiring) { usleep(1_000) }
      }
    }
    holder.start()
    while !gate.entered.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
    let queuedBefore = database.writer.queuedWrites.load(ordering: .relaxed)
    let pending = Task { () throws -> (UInt, UInt) in
      let caller = currentThread()
      let inBody = try await database.write { tx in
        _ = try tx.execute(sql: "UPDATE book SET title = 'second' WHERE id = \(10)")
        return currentThread()
      }
      return (caller, inBody)
    }
    // The write did not wait on its task's thread: it went to the writer's queue.
    while database.writer.queuedWrites.load(ordering: .relaxed) == queuedBefore {
      try await Task.sleep(for: .milliseconds(1))
    }
    #expect(try database.readSynchronously { try $0.fetch(Book.self, id: 10)?.title } == "At Swim")
    gate.released.store(true, ordering: .releasing)
    let (caller, inBody) = try await pending.value
    #expect(caller != inBody)
    // Committed after the write that held the writer, and observed.
    #expect(try await database.fetch(Book.self, id: 10)?.title == "second")
    var seen: [String?] = []
    while seen.last != "second" { seen.append(try await titles.next() ?? nil) }
    #expect(seen.allSatisfy { $0 == "first" || $0 == "second" })
    // Idle again: the next write runs inline.
    let queuedAfter = database.writer.queuedWrites.load(ordering: .relaxed)
    try await database.write { tx in try tx.save(Author(id: 3, name: "Jansson")) }
    #expect(database.writer.queuedWrites.load(ordering: .relaxed) == queuedAfter)
    await database.close()
  }

  @Test func aWriteWhileAnotherConnectionHoldsTheLockWaitsOnTheWritersQueue() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    // A busy timeout far longer than anything the test waits for: an inline attempt that
    // busy-waited on the lock would take all of it before the write reached the queue.
    var configuration = Database.Configuration()
    configuration.busyTimeout = .seconds(120)
    let database = try await Library.library(folder, configuration: configuration)
    // Another connection to the file (another process, as far as SQLite is concerned)
    // holds the write lock.
    let other = try Connection(
      path: database.path, readOnly: false, busyTimeout: .seconds(5),
      counters: StatisticsCounters(), cacheCapacity: 8)
    try other.execute("BEGIN IMMEDIATE")
    try other.execute("UPDATE author SET name = 'Flann' WHERE id = 1")
    let queuedBefore = database.writer.queuedWrites.load(ordering: .relaxed)
    let started = ContinuousClock.now
    let pending = Task { () throws -> (UInt, UInt) in
      let caller = currentThread()
      let inBody = try await database.write { tx in
        try tx.save(Author(id: 3, name: "Jansson"))
        return currentThread()
      }
      return (caller, inBody)
    }
    // The inline attempt gave up at once (no busy wait on the task's thread): the write
    // reached the queue long before the 120 s busy timeout. (Not a speed check: under the
    // thread sanitizer, with every suite running at once, getting here took 7 s once, which
    // the old 4 s bound failed.)
    while database.writer.queuedWrites.load(ordering: .relaxed) == queuedBefore {
      try await Task.sleep(for: .milliseconds(1))
    }
    #expect(ContinuousClock.now - started < .seconds(60))
    try other.execute("COMMIT")
    let (caller, inBody) = try await pending.value
    #expect(caller != inBody)
    let names = try await database.read { db in
      try db.fetchAll(Author.self, sortBy: [.ascending("id")]).map(\.name)
    }
    #expect(names == ["Flann", "Le Guin", "Jansson"])
    await database.close()
  }
}

/// Two flags between the test and a thread holding the writer.
private final class Gate: Sendable {
  let entered = Atomic<Bool>(false)
  let released = Atomic<Bool>(false)
}

/// The calling thread, as a number.
private func currentThread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
