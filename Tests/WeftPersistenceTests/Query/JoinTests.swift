import Foundation
import Testing

@testable import WeftPersistence

/// Joins decoded into pairs, and their observation.
@Suite struct JoinTests {
  @Test func joinDecodesPairs() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Library.library(folder)
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

  @Test func observesAHandWrittenJoin() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Library.library(folder)
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
