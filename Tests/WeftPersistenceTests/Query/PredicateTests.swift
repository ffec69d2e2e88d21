import Foundation
import Testing

@testable import WeftPersistence

@Suite struct PredicateTests {
  static func database() async throws -> Database {
    let database = try await Database.inMemory(migrations: TestSchema.all)
    try await database.write { tx in
      try tx.save(
        contentsOf: (1...20).map { id in
          Metric.sample(
            id, kind: [.heartRate, .steps, .sleep][id % 3], note: id % 5 == 0 ? nil : "note \(id)")
        })
    }
    return database
  }

  static func ids(_ database: Database, _ predicate: RecordPredicate?) async throws -> [Int] {
    try await database.fetchAll(Metric.self, where: predicate, sortBy: [.ascending("id")])
      .map(\.id)
  }

  @Test func comparisonsMatchSwiftSemantics() async throws {
    let database = try await Self.database()
    #expect(try await Self.ids(database, Field("id") == 3) == [3])
    #expect(try await Self.ids(database, Field("id") < 3) == [1, 2])
    #expect(try await Self.ids(database, Field("id") <= 3) == [1, 2, 3])
    #expect(try await Self.ids(database, Field("id") > 18) == [19, 20])
    #expect(try await Self.ids(database, Field("id") >= 19) == [19, 20])
    #expect(
      try await Self.ids(database, Field("kind") == Metric.Kind.steps) == [1, 4, 7, 10, 13, 16, 19])
    let cutoff = Date(timeIntervalSince1970: 1_700_000_000 + 3 * 60)
    #expect(try await Self.ids(database, Field("recordedAt") <= cutoff) == [1, 2, 3])
  }

  @Test func notEqualIsTrueForNullLikeSwift() async throws {
    let database = try await Self.database()
    let ids = try await Self.ids(database, Field("note") != "note 1")
    #expect(ids.count == 19)
    #expect(ids.contains(5))  // note is nil: nil != "note 1" in Swift
    #expect(try await Self.ids(database, Field("note") == nil) == [5, 10, 15, 20])
    #expect(try await Self.ids(database, Field("note") != nil).count == 16)
  }

  @Test func logicalOperatorsCombine() async throws {
    let database = try await Self.database()
    #expect(try await Self.ids(database, Field("id") < 3 || Field("id") > 19) == [1, 2, 20])
    #expect(try await Self.ids(database, Field("id") > 2 && Field("id") < 5) == [3, 4])
    #expect(try await Self.ids(database, !(Field("id") > 2)) == [1, 2])
    #expect(try await Self.ids(database, RecordPredicate.none).isEmpty)
    #expect(try await Self.ids(database, RecordPredicate.all).count == 20)
  }

  @Test func membershipAndText() async throws {
    let database = try await Self.database()
    #expect(try await Self.ids(database, Field("id").in([2, 4, 99])) == [2, 4])
    #expect(try await Self.ids(database, Field("id").in([Int]())).isEmpty)
    #expect(
      try await Self.ids(database, Field("note").contains("te 1")) == [
        1, 11, 12, 13, 14, 16, 17, 18, 19,
      ])
    #expect(try await Self.ids(database, Field("note").hasPrefix("note 2")) == [2])
    #expect(try await Self.ids(database, Field("tags").containsElement("odd")).count == 10)
    #expect(try await Self.ids(database, Field("note").contains("NOTE")).isEmpty)
  }

  @Test func sortLimitAndOffset() async throws {
    let database = try await Self.database()
    let page = try await database.fetchAll(
      FetchDescriptor<Metric>(
        where: Field("kind") == "steps", sortBy: [.descending("id")], limit: 2, offset: 1))
    #expect(page.map(\.id) == [16, 13])
    let skipped = try await database.fetchAll(Metric.self, sortBy: [.ascending("id")], offset: 18)
    #expect(skipped.map(\.id) == [19, 20])
    let sorted = try await database.fetchAll(
      Metric.self, sortBy: [.ascending("kind"), .descending("id")], limit: 3)
    #expect(sorted.map(\.id) == [18, 15, 12])
  }

  /// A value is always a bound parameter: text that looks like SQL is just text.
  @Test func valuesAreNeverSplicedIntoSQL() async throws {
    let database = try await Self.database()
    let hostile = "x' OR 1=1; DROP TABLE metric; --"
    #expect(try await Self.ids(database, Field("note") == hostile).isEmpty)
    #expect(try await database.count(Metric.self) == 20)
    var builder = SQLBuilder(table: "metric")
    try builder.appendWhere(Field("note") == hostile && Field("id").in([1, 2]))
    #expect(builder.sql == #" WHERE ("note" = ?1 AND "id" IN (?2, ?3))"#)
    #expect(builder.arguments == [.text(hostile), .integer(1), .integer(2)])
    #expect(!builder.sql.contains("DROP"))
  }

  @Test func fieldNamesAreValidated() async throws {
    let database = try await Self.database()
    await #expect(throws: PersistenceError.invalidField(table: "metric", field: "id; DROP")) {
      try await database.fetchAll(Metric.self, where: Field("id; DROP") == 1)
    }
    await #expect(throws: PersistenceError.invalidField(table: "metric", field: "1st")) {
      try await database.fetchAll(Metric.self, sortBy: [.ascending("1st")])
    }
    #expect(
      PersistenceError.invalidField(table: "metric", field: "id; DROP").description
        == "field \"id; DROP\" of \"metric\" is not a valid column name: use letters, digits "
        + "and underscores, starting with a letter or an underscore.")
  }

  /// The text depends only on the predicate's shape, so one cached statement serves all
  /// values.
  @Test func sqlTextDependsOnlyOnShape() throws {
    func sql(_ predicate: RecordPredicate) throws -> String {
      var builder = SQLBuilder(table: "metric")
      try builder.appendWhere(predicate)
      return builder.sql
    }
    #expect(try sql(Field("id") == 1) == sql(Field("id") == 2))
    #expect(try sql(Field("note").hasPrefix("a")) == #" WHERE substr("note", 1, length(?1)) = ?1"#)
    #expect(
      try sql(Field("tags").containsElement("x"))
        == #" WHERE EXISTS (SELECT 1 FROM json_each("metric"."tags") WHERE json_each.value = ?1)"#)
  }

  @Test func indexedPredicatesUseTheIndex() async throws {
    let database = try await Self.database()
    let plan = try await database.read { db in
      try db.rows(
        "EXPLAIN QUERY PLAN SELECT * FROM \"metric\" WHERE (\"kind\" = ?1 AND \"recordedAt\" >= ?2)",
        ["steps", 0])
    }
    let detail = plan.compactMap { row -> String? in
      if case .text(let text) = row["detail"] { return text }
      return nil
    }.joined()
    #expect(detail.contains("USING INDEX metric_kind_recordedAt"))
  }
}
