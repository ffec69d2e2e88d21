import Foundation
import Testing

@testable import WeftPersistence

/// The by-position fast path.
@Suite struct RowDecodableTests {
  @Test func fastPathDecodesByPositionWithChecks() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Library.library(folder)
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
    } catch {
      // The `do` body calls only `throws(PersistenceError)` functions: `error` is typed.
      #expect(error.kind == .decodingFailed)
      #expect(error.table == "book")
      #expect(error.recordID == "10")
      #expect(error.codingPath == "title")
    }
  }
}
