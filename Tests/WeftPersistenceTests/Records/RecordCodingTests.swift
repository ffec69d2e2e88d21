import Foundation
import Testing
import WeftPersistence

@Suite struct RecordCodingTests {
  /// Every storable field type, optional and not.
  struct Everything: PersistableRecord, Equatable {
    static let tableName = "everything"
    enum Level: Int, Codable, Sendable {
      case low = 1
      case high = 2
    }
    struct Detail: Codable, Sendable, Equatable {
      var unit: String
      var samples: [Double]
    }
    var id: UUID
    var int: Int
    var int8: Int8
    var uint32: UInt32
    var int64: Int64
    var double: Double
    var float: Float
    var bool: Bool
    var text: String
    var empty: String
    var date: Date
    var data: Data
    var url: URL
    var level: Level
    var detail: Detail
    var list: [Int]
    var map: [String: Int]
    var optionalInt: Int?
    var optionalText: String?
    var optionalDetail: Detail?
  }

  static let createEverything = Migration(1, "everything") { tx in
    try tx.execute(
      """
      CREATE TABLE everything (id TEXT PRIMARY KEY, int INTEGER, int8 INTEGER, uint32 INTEGER,
        int64 INTEGER, double REAL, float REAL, bool INTEGER, text TEXT, empty TEXT, date REAL,
        data BLOB, url TEXT, level INTEGER, detail TEXT, list TEXT, map TEXT, optionalInt INTEGER,
        optionalText TEXT, optionalDetail TEXT)
      """)
  }

  static func sample(optionals: Bool) -> Everything {
    Everything(
      id: UUID(uuidString: "00000000-0000-0000-0000-0000000000AB")!, int: -42, int8: -8,
      uint32: 4_000_000_000, int64: .max, double: 72.25, float: 1.5, bool: true,
      text: "héllo \"quoted\" 'single' ; DROP TABLE everything; --", empty: "",
      date: Date(timeIntervalSince1970: 1_700_000_123.5), data: Data([0, 1, 2, 255]),
      url: URL(string: "https://example.com/a?b=c")!, level: .high,
      detail: Everything.Detail(unit: "bpm", samples: [1, 2.5]), list: [3, 1, 2], map: ["a": 1],
      optionalInt: optionals ? 7 : nil, optionalText: optionals ? "x" : nil,
      optionalDetail: optionals ? Everything.Detail(unit: "kg", samples: []) : nil)
  }

  @Test(arguments: [true, false])
  func everyFieldTypeRoundTrips(optionals: Bool) async throws {
    let database = try await Database.inMemory(migrations: [Self.createEverything])
    let record = Self.sample(optionals: optionals)
    try await database.save(record)
    let fetched = try await database.fetch(Everything.self, id: record.id)
    #expect(fetched == record)
  }

  @Test func fieldsAreStoredAsPlainColumns() async throws {
    let database = try await Database.inMemory(migrations: [Self.createEverything])
    try await database.save(Self.sample(optionals: false))
    let row = try await database.read { try $0.rows("SELECT * FROM everything").first }
    #expect(row?["id"] == .text("00000000-0000-0000-0000-0000000000AB"))
    #expect(row?["bool"] == .integer(1))
    #expect(row?["date"] == .real(1_700_000_123.5))
    #expect(row?["data"] == .blob([0, 1, 2, 255]))
    #expect(row?["level"] == .integer(2))
    #expect(row?["detail"] == .text(#"{"samples":[1,2.5],"unit":"bpm"}"#))
    #expect(row?["list"] == .text("[3,1,2]"))
    #expect(row?["optionalInt"] == .null)
  }

  @Test func savingAgainUpdatesInPlace() async throws {
    let database = try await Database.inMemory(migrations: TestSchema.all)
    try await database.save(Metric.sample(1, note: "first"))
    var changed = Metric.sample(1, value: 99)
    changed.note = nil
    try await database.save(changed)
    #expect(try await database.fetch(Metric.self, id: 1) == changed)
    #expect(try await database.count(Metric.self) == 1)
  }

  /// Fields declared in another order than the columns still land in the right columns.
  @Test func fieldOrderNeedNotMatchColumnOrder() async throws {
    struct Reordered: PersistableRecord, Equatable {
      static let tableName = "metric"
      var tags: [String]
      var note: String?
      var recordedAt: Date
      var value: Double
      var kind: Metric.Kind
      var id: Int
    }
    let database = try await Database.inMemory(migrations: TestSchema.all)
    let record = Reordered(
      tags: ["t"], note: "n", recordedAt: Date(timeIntervalSince1970: 5), value: 1, kind: .steps,
      id: 3)
    try await database.save(record)
    try await database.save(
      Reordered(tags: [], note: nil, recordedAt: .distantPast, value: 2, kind: .sleep, id: 4))
    #expect(try await database.fetch(Reordered.self, id: 3) == record)
    #expect(try await database.fetch(Metric.self, id: 3)?.kind == .steps)
  }

  /// Two models over one table share the cached `SELECT *` statement and its row decoder
  /// (which caches one keyed container and one key-to-column table): fetching them in turn,
  /// many rows each, keeps every field in its own column.
  @Test func modelsSharingAStatementKeepTheirColumns() async throws {
    struct Reordered: PersistableRecord, Equatable {
      static let tableName = "metric"
      var value: Double
      var id: Int
      var kind: Metric.Kind
    }
    let database = try await Database.inMemory(migrations: TestSchema.all)
    for id in 1...50 {
      try await database.save(
        Metric.sample(id, kind: id.isMultiple(of: 2) ? .steps : .sleep, value: Double(id) / 2))
    }
    for _ in 0..<3 {
      let reordered = try await database.fetchAll(Reordered.self, sortBy: [.ascending("id")])
      let metrics = try await database.fetchAll(Metric.self, sortBy: [.ascending("id")])
      #expect(reordered.map(\.id) == Array(1...50))
      #expect(reordered.map(\.value) == (1...50).map { Double($0) / 2 })
      #expect(metrics.map(\.id) == Array(1...50))
      #expect(metrics.map(\.value) == (1...50).map { Double($0) / 2 })
      #expect(metrics.map(\.kind) == reordered.map(\.kind))
    }
  }

  /// A record whose custom `encode(to:)` skips a key for some values takes the slow path
  /// for those, without mixing columns up, and the fast path again afterwards.
  @Test func recordsWithVaryingKeysStillSave() async throws {
    struct Sparse: PersistableRecord, Equatable {
      static let tableName = "metric"
      var id: Int
      var kind: String
      var value: Double
      var recordedAt: Double
      var note: String?
      var tags: [String]
      enum CodingKeys: String, CodingKey { case id, kind, value, recordedAt, note, tags }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        if let note { try container.encode(note, forKey: .note) }
        try container.encode(value, forKey: .value)
        try container.encode(recordedAt, forKey: .recordedAt)
        try container.encode(tags, forKey: .tags)
      }
    }
    let database = try await Database.inMemory(migrations: TestSchema.all)
    let records = [
      Sparse(id: 1, kind: "steps", value: 1, recordedAt: 10, note: "a", tags: []),
      Sparse(id: 2, kind: "sleep", value: 2, recordedAt: 20, note: nil, tags: ["x"]),
      Sparse(id: 3, kind: "steps", value: 3, recordedAt: 30, note: "c", tags: []),
    ]
    try await database.write { try $0.save(contentsOf: records) }
    #expect(try await database.fetchAll(Sparse.self, sortBy: [.ascending("id")]) == records)
  }

  @Test func unsignedOverflowIsAnEncodingError() async throws {
    struct Big: PersistableRecord {
      static let tableName = "metric"
      var id: Int
      var value: UInt64
    }
    let database = try await Database.inMemory(migrations: TestSchema.all)
    await #expect(
      throws: PersistenceError.encodingFailed(
        table: "metric", codingPath: "value",
        detail: "18446744073709551615 does not fit in SQLite's 64-bit signed INTEGER")
    ) {
      try await database.save(Big(id: 1, value: .max))
    }
  }
}
