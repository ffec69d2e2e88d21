import Foundation
import Testing

@testable import WeftPersistence

/// Hand-written SQL: interpolated values are bound, never spliced.
@Suite struct SQLLiteralTests {
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
    let database = try await Library.library(folder)
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
}
