import Foundation
import Testing

@testable import WeftPersistence

/// An author and their books: two record types for joins.
private struct Author: PersistableRecord, Equatable {
  static let tableName = "author"
  var id: Int
  var name: String
}

private struct Book: PersistableRecord, Equatable {
  static let tableName = "book"
  var id: Int
  var authorId: Int?
  var title: String
}

/// The same table as `Book`, decoded by position (the fast path).
private struct FastBook: PersistableRecord, RowDecodable, Equatable {
  static let tableName = "book"
  var id: Int
  var authorId: Int?
  var title: String

  init(id: Int, authorId: Int?, title: String) {
    self.id = id
    self.authorId = authorId
    self.title = title
  }

  init(columns: RowColumns) throws {
    id = try columns[0]
    authorId = try columns[1]
    title = try columns[2]
  }
}

/// A result that is no record: an aggregate row.
private struct Tally: Decodable, Equatable {
  var authorId: Int
  var books: Int
}

@Suite struct SQLQueryTests {
  static let migrations = [
    Migration(1, "library") { tx in
      try tx.execute("CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try tx.execute(
        "CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), "
          + "title TEXT NOT NULL)")
    }
  ]

  /// A database file with two authors and four books (one without an author).
  static func library(_ folder: TemporaryFolder) async throws -> Database {
    let database = try await Database.open(
      at: folder.file("library.sqlite"), migrations: migrations)
    try await database.write { tx in
      try tx.save(Author(id: 1, name: "O'Brien"))
      try tx.save(Author(id: 2, name: "Le Guin"))
      try tx.save(Book(id: 10, authorId: 1, title: "At Swim"))
      try tx.save(Book(id: 11, authorId: 2, title: "Earthsea"))
      try tx.save(Book(id: 12, authorId: 2, title: "The Dispossessed"))
      try tx.save(Book(id: 13, authorId: nil, title: "Anonymous"))
    }
    return database
  }

  @Test func interpolatedValuesAreBoundNotSpliced() throws {
    let name = "O'Brien'; DROP TABLE author; --"
    let sql: SQL = "SELECT * FROM \(identifier: "author") WHERE name = \(name) AND id > \(0)"
    #expect(sql.text == "SELECT * FROM \"author\" WHERE name = ? AND id > ?")
    #expect(sql.arguments == [.text(name), .integer(0)])
    let none: Int? = nil
    let nested: SQL = "SELECT \(sql: "\(1) + \(2)"), \(none)"
    #expect(nested.text == "SELECT ? + ?, ?")
    #expect(nested.arguments == [.integer(1), .integer(2), .null])
  }

  @Test func handWrittenSQLFetchesRecordsAndRows() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Self.library(folder)
    let hostile = "O'Brien"
    let authors = try await database.read { db in
      try db.fetchAll(Author.self, sql: "SELECT * FROM author WHERE name = \(hostile)")
    }
    #expect(authors == [Author(id: 1, name: "O'Brien")])
    let tallies = try await database.read { db in
      try db.fetchAll(
        Tally.self,
        sql: """
          SELECT authorId, count(*) AS books FROM \(table: Book.self)
          WHERE authorId IS NOT NULL GROUP BY authorId ORDER BY authorId
          """)
    }
    #expect(tallies == [Tally(authorId: 1, books: 1), Tally(authorId: 2, books: 2)])
    let first = try await database.read { db in
      try db.fetchOne(Book.self, sql: "SELECT * FROM book WHERE id > \(11) ORDER BY id")
    }
    #expect(first?.title == "The Dispossessed")
    let changed = try await database.write { tx in
      try tx.execute(sql: "UPDATE book SET title = upper(title) WHERE authorId = \(2)")
    }
    #expect(changed == 2)
    let count = try await database.read { db in
      try db.scalar(sql: "SELECT count(*) FROM book WHERE title = \("EARTHSEA")")
    }
    #expect(count == .integer(1))
    // The hostile text was bound: the table is still there.
    #expect(try await database.read { try $0.rows(sql: "SELECT * FROM author") }.count == 2)
  }

  @Test func joinDecodesPairs() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Self.library(folder)
    let pairs = try await database.read { db in
      try db.fetchAll(
        Book.self, Author.self,
        sql: """
          SELECT book.*, author.* FROM book JOIN author ON author.id = book.authorId
          WHERE author.id = \(2) ORDER BY book.id
          """)
    }
    #expect(pairs.map(\.0.title) == ["Earthsea", "The Dispossessed"])
    #expect(pairs.map(\.1) == [Author(id: 2, name: "Le Guin"), Author(id: 2, name: "Le Guin")])

    let left = try await database.read { db in
      try db.fetchAll(
        FastBook.self, optional: Author.self,
        sql: """
          SELECT book.*, author.* FROM book LEFT JOIN author ON author.id = book.authorId
          ORDER BY book.id
          """)
    }
    #expect(left.map(\.0.id) == [10, 11, 12, 13])
    #expect(left.map { $0.1?.name } == ["O'Brien", "Le Guin", "Le Guin", nil])

    // A required join over a missing side fails, naming the table.
    await #expect(throws: PersistenceError.self) {
      try await database.read { db in
        try db.fetchAll(
          Book.self, Author.self,
          sql: "SELECT book.*, author.* FROM book LEFT JOIN author ON author.id = book.authorId")
      }
    }
  }

  @Test func fastPathDecodesByPositionWithChecks() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Self.library(folder)
    let fast = try await database.fetchAll(FastBook.self, sortBy: [.ascending("id")])
    let codable = try await database.fetchAll(Book.self, sortBy: [.ascending("id")])
    #expect(fast.map(\.id) == codable.map(\.id))
    #expect(fast.map(\.authorId) == codable.map(\.authorId))
    #expect(fast.map(\.title) == codable.map(\.title))
    #expect(try await database.read { try $0.fetch(FastBook.self, id: 13) }?.authorId == nil)

    // A column holding the wrong storage class is an error naming the column.
    try await database.write { tx in
      try tx.execute("UPDATE book SET title = x'00' WHERE id = 10")
    }
    do {
      _ = try await database.fetchAll(FastBook.self)
      Issue.record("decoding a BLOB as String should fail")
    } catch let PersistenceError.decodingFailed(table, id, codingPath, _) {
      #expect(table == "book")
      #expect(id == "10")
      #expect(codingPath == "title")
    }
  }

  @Test func synchronousReadRunsOnTheCallersThread() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Self.library(folder)
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
      at: folder.file("library.sqlite"), migrations: Self.migrations,
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
    let database = try await Self.library(folder)
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
    let database = try await Database.inMemory(migrations: Self.migrations)
    #expect(throws: PersistenceError.self) {
      try database.readSynchronously { try $0.count(Book.self) }
    }
  }

  @Test func observesAHandWrittenJoin() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Self.library(folder)
    let stream = database.observe { db in
      try db.fetchAll(
        Tally.self,
        sql: """
          SELECT author.id AS authorId, count(book.id) AS books FROM author
          LEFT JOIN book ON book.authorId = author.id GROUP BY author.id ORDER BY author.id
          """)
    }
    var iterator = stream.makeAsyncIterator()
    #expect(try await iterator.next()?.map(\.books) == [1, 2])
    // A write to the joined table (not the first one) wakes it: the authorizer found both.
    try await database.write { tx in try tx.save(Book(id: 20, authorId: 1, title: "Dalkey")) }
    #expect(try await iterator.next()?.map(\.books) == [2, 2])
    try await database.write { tx in try tx.save(Author(id: 3, name: "Calvino")) }
    #expect(try await iterator.next()?.map(\.books) == [2, 2, 0])
  }
}
