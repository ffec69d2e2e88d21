import Foundation
import HealthDomain
import Testing
import WeftPersistence

@Suite("HealthSchema")
struct HealthSchemaTests {
  @Test func recordsRoundTrip() async throws {
    let database = try await healthDatabase()
    var draft = metric(1, .bodyTemperature, 98.6, at: -60)
    draft.notes = "after a run"
    let noted = draft
    let insight = Insight(
      id: uuid(9), title: "Sleep more", body: "You slept 5 h", date: referenceDate,
      priority: .high)
    try await database.write { tx in
      try tx.save(noted)
      try tx.save(insight)
    }
    #expect(try await database.fetch(HealthMetric.self, id: noted.id) == noted)
    #expect(try await database.fetch(Insight.self, id: insight.id) == insight)
    await database.close()
  }

  @Test func fetchesByTypeAndDateRange() async throws {
    let database = try await healthDatabase()
    try await database.write { tx in
      try tx.save(contentsOf: [
        metric(1, .steps, 100, at: -86_400 * 8),  // outside the week
        metric(2, .steps, 200, at: -86_400 * 2),
        metric(3, .heartRate, 70, at: -3600),
        metric(4, .steps, 300, at: 0),  // at the reference: bound included
      ])
    }
    let week = DateRange.week.interval(relativeTo: referenceDate)
    let steps = try await database.fetchAll(
      HealthMetric.self,
      where: Field("type") == MetricType.steps && Field("date") >= week.start
        && Field("date") <= week.end, sortBy: [.ascending("date")])
    #expect(steps.map(\.value) == [200, 300])
    await database.close()
  }

  @Test func createsTheIndexesAndLeavesTheOutboxToPersistence() async throws {
    let database = try await healthDatabase()
    let names = try await database.read { db in
      try db.rows("SELECT name FROM sqlite_master WHERE type IN ('index', 'table') ORDER BY name")
        .compactMap { row -> String? in
          if case .text(let name) = row[0] { return name }
          return nil
        }
    }
    for name in [
      "health_metric", "health_metric_type", "health_metric_date", "health_metric_type_date",
      "insight", "insight_date", "weft_outbox",
    ] {
      #expect(names.contains(name), "\(name) missing from \(names)")
    }
    #expect(HealthSchema.version == 2)
    #expect(database.migrationRuns.map(\.version) == [1, 2])
    await database.close()
  }
}
