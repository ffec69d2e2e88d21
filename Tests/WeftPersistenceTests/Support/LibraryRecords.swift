import Foundation
import WeftPersistence

/// An author and their books: two record types for joins and hand-written SQL.
struct Author: PersistableRecord, Equatable {
  static let tableName = "author"
  var id: Int
  var name: String
}

struct Book: PersistableRecord, Equatable {
  static let tableName = "book"
  var id: Int
  var authorId: Int?
  var title: String
}

/// The same table as `Book`, decoded by position (the fast path).
struct FastBook: PersistableRecord, RowDecodable, Equatable {
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
struct Tally: Decodable, Equatable {
  var authorId: Int
  var books: Int
}

/// A library file: two authors and four books (one without an author).
enum Library {
  static let migrations = [
    Migration(1, "library") { tx in
      try tx.execute("CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try tx.execute(
        "CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), "
          + "title TEXT NOT NULL)")
    }
  ]

  static func library(
    _ folder: TemporaryFolder, configuration: Database.Configuration = Database.Configuration()
  ) async throws -> Database {
    let database = try await Database.open(
      at: folder.file("library.sqlite"), migrations: migrations, configuration: configuration)
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
}
