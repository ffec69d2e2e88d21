import Foundation
import Testing

@testable import WeftPersistence

/// `readSynchronously` and `writeSynchronously` against a real file.
@Suite struct SynchronousCallTests {
  @Test func synchronousReadRunsOnTheCallersThread() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Library.library(folder)
    let titles = try database.readSynchronously { db in
      try db.fetchAll(Book.self, where: Field("authorId") == 2, sortBy: [.ascending("id")])
        .map(\.title)
    }
    #expect(titles == ["Earthsea", "The Dispossessed"])
    // Sees the latest commit.
    try await database.write { tx in try tx.save(Book(id: 14, authorId: 2, title: "Lathe")) }
    #expect(try database.readSynchronously { try $0.count(Book.self) } == 5)
    // More synchronous reads than readers, at once, from several threads.
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<16 {
        group.addTask { try database.readSynchronously { try $0.count(Author.self) } }
      }
      return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(counts == Array(repeating: 2, count: 16))
    await database.close()
    #expect(throws: PersistenceError.closed(path: database.path)) {
      try database.readSynchronously { try $0.count(Book.self) }
    }
  }

  @Test func nestedSynchronousReadsTakeAnotherReaderOrThrow() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Database.open(
      at: folder.file("library.sqlite"), migrations: Library.migrations,
      configuration: {
        var configuration = Database.Configuration()
        configuration.maximumReaders = 1
        return configuration
      }())
    // With one reader, a synchronous read inside another would wait for itself: it throws.
    #expect(throws: PersistenceError.self) {
      try database.readSynchronously { _ in
        try database.readSynchronously { try $0.count(Book.self) }
      }
    }
    // The outer read's reader went back to the pool: reads still work.
    #expect(try database.readSynchronously { try $0.count(Book.self) } == 0)
    // A synchronous write inside a read would wait while holding a reader: it throws.
    #expect(throws: PersistenceError.self) {
      try database.readSynchronously { _ in
        try database.writeSynchronously { tx in try tx.save(Author(id: 5, name: "Nested")) }
      }
    }
    // A synchronous read inside a synchronous write takes the free reader and sees the
    // last commit (not the write in progress).
    let seen = try database.writeSynchronously { tx in
      try tx.save(Author(id: 6, name: "Inside"))
      return try database.readSynchronously { try $0.count(Author.self) }
    }
    #expect(seen == 0)
    #expect(try database.readSynchronously { try $0.count(Author.self) } == 1)
    await database.close()
  }

  @Test func synchronousWritesCommitInOrderAndWakeObservers() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Library.library(folder)
    var titles = database.observe { db in
      try db.fetchAll(Book.self, where: Field("authorId") == 1, sortBy: [.ascending("id")])
        .map(\.title)
    }.makeAsyncIterator()
    #expect(try await titles.next() == ["At Swim"])
    let changed = try database.writeSynchronously { tx in
      try tx.save(Book(id: 30, authorId: 1, title: "The Third Policeman"))
      return try tx.execute(sql: "UPDATE book SET title = title || '!' WHERE id = \(10)")
    }
    #expect(changed == 1)
    #expect(try await titles.next() == ["At Swim!", "The Third Policeman"])
    // A throwing body rolls back.
    #expect(throws: PersistenceError.self) {
      try database.writeSynchronously { tx in
        try tx.save(Book(id: 31, authorId: 1, title: "Rolled back"))
        try tx.execute("INSERT INTO book (id, authorId, title) VALUES (30, 1, 'duplicate id')")
      }
    }
    #expect(try await database.fetch(Book.self, id: 31) == nil)
    // Nested in an async write's body it would wait for itself: it throws instead.
    await #expect(throws: PersistenceError.self) {
      try await database.write { _ in
        try database.writeSynchronously { tx in try tx.save(Author(id: 9, name: "Nested")) }
      }
    }
    #expect(try await database.count(Author.self) == 2)
  }

  @Test func synchronousReadRefusesAnInMemoryDatabase() async throws {
    let database = try await Database.inMemory(migrations: Library.migrations)
    #expect(throws: PersistenceError.self) {
      try database.readSynchronously { try $0.count(Book.self) }
    }
  }
}
