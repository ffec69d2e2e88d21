import Foundation
import Testing

/// PCT and the exhaustive walk on every planted bug of the race app (`race-sim`): each is
/// found, its schedules replay (PCT's by seed, the shrunk one by string), and the shrunk
/// schedule's trace names the tasks that interleaved.
@Suite("weft-sim explore: strategies on every planted bug")
struct ExploreStrategiesTests {
  let explore = ExploreTests()

  static let bugs: [(flow: String, symptom: String, tasks: [String])] = [
    (
      "lost-update", "count is 1, expected == 2",
      ["'count.addAudited (line 7)'", "'count.add (line 7)'"]
    ),
    (
      "stale-refresh", "feed.shown is 1, expected == 2",
      ["'feed.refresh (line 7, iteration 1)'", "'feed.refresh (line 7, iteration 2)'"]
    ),
    (
      "double-submit", "orders.created is 2, expected == 1",
      ["'order.submit (line 8)'", "'order.submitFromKeyboard (line 8)'"]
    ),
    (
      "handshake", "timed out waiting for handshakes.done == 2",
      ["'handshake.first (line 8)'", "'handshake.second (line 8)'"]
    ),
  ]

  /// The replay argument of the first failing outcome (`--schedule-seed pct:…`).
  static func pctSeed(in text: String) -> String? {
    guard let line = text.split(separator: "\n").first(where: { $0.contains("  replay:") }),
      let range = line.range(of: "--schedule-seed ")
    else { return nil }
    return String(line[range.upperBound...])
  }

  @Test(arguments: 0..<4)
  func pctFindsItAndTheMinimalTraceNamesTheTasks(bug: Int) async throws {
    let (name, symptom, tasks) = Self.bugs[bug]
    let explored = try await explore.run([
      "explore", explore.flow(name), "--strategy", "pct", "--schedules", "200",
    ])
    #expect(explored.status == 1, "\(explored.standard)\(explored.error)")
    #expect(explored.standard.contains("· pct (depth 3, "))
    let trace = explored.standard.components(separatedBy: "  trace (").dropFirst().first ?? ""
    for task in tasks { #expect(trace.contains(task), "\(task) in \(explored.standard)") }
    #expect(trace.contains("▶ job"))

    let seed = try #require(Self.pctSeed(in: explored.standard), "\(explored.standard)")
    #expect(seed.hasPrefix("pct:3:"))
    let bySeed = try await explore.run([
      explore.flow(name), "--schedule-seed", seed, "--no-progress",
    ])
    #expect(bySeed.status == 1, "\(seed): \(bySeed.standard)\(bySeed.error)")
    #expect(bySeed.standard.contains(symptom))
    let minimal = try #require(
      ExploreTests.scheduleString(after: "  minimal:", in: explored.standard))
    let byString = try await explore.run([
      explore.flow(name), "--schedule", minimal, "--no-progress",
    ])
    #expect(byString.status == 1, "\(minimal): \(byString.standard)")
    #expect(byString.standard.contains(symptom))
    #expect(byString.error.isEmpty, "\(byString.error)")
  }

  @Test(arguments: 0..<4)
  func exhaustiveFindsItWithinTwoPreemptions(bug: Int) async throws {
    let (name, symptom, _) = Self.bugs[bug]
    let explored = try await explore.run([
      "explore", explore.flow(name), "--strategy", "exhaustive", "--preemptions", "2",
      "--schedules", "1000",
    ])
    #expect(explored.status == 1, "\(explored.standard)")
    #expect(explored.standard.contains("space covered · 2 distinct outcomes · 1 failing"))
    #expect(explored.standard.contains(symptom))
  }

  @Test func theControlsPassEveryPCTSchedule() async throws {
    let controls = try await explore.run([
      "explore", explore.flow("controls"), "--strategy", "pct", "--schedules", "200",
    ])
    #expect(controls.status == 0, "\(controls.standard)")
    #expect(controls.standard.contains("1 distinct outcome · every schedule passed"))
  }
}
