import Foundation
import Testing

@testable import WeftPersistence

/// The migration log line states its duration with a unit (issue 19: it printed raw
/// seconds, `took 0.001234567 seconds`).
@Suite struct MigrationLogTextTests {
  @Test func theDurationCarriesAUnitAndThreeSignificantDigits() {
    let cases: [(Duration, String)] = [
      (.nanoseconds(850), "850 ns"),
      (.nanoseconds(18_240), "18.2 µs"),
      (.nanoseconds(1_234_567), "1.23 ms"),
      (.milliseconds(456), "456 ms"),
      (.nanoseconds(999_600), "1.00 ms"),
      (.seconds(2), "2.00 s"),
      (.seconds(75), "75.0 s"),
      (.zero, "0 ns"),
    ]
    for (duration, text) in cases {
      let run = MigrationRun(version: 2, name: "create todo", duration: duration)
      #expect(run.description == "migration 2 \"create todo\" took \(text)")
    }
  }

  @Test func aRealMigrationLogsItsDurationWithAUnit() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try await Database.open(
      at: folder.file("app.sqlite"), migrations: TestSchema.all)
    let first = database.migrationRuns.first?.description
    await database.close()
    let line = try #require(first)
    let pattern = #/^migration 1 "create metric" took \d+(\.\d+)? (ns|µs|ms|s)$/#
    #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
  }
}
