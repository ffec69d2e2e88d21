import Testing
import WeftRuntime

/// Schedule strings and scripted choosers: a recorded schedule replays pick for pick, a long
/// one stays loadable, and a stale one says where it stopped matching.
@Suite struct ScheduleStringTests {
  /// Records a seeded chooser's picks over `count` decisions with varying candidate counts.
  func recorded(seed: UInt64, decisions count: Int) -> (picks: [Int], chooser: ScheduleChooser) {
    var chooser = ScheduleChooser(seed: seed, script: [], recording: true)
    let picks = (0..<count).map { index in chooser.pick(among: 2 + index % 3) }
    return (picks, chooser)
  }

  @Test func aRecordedScheduleOf20000DecisionsReplaysPickForPick() throws {
    let (picks, chooser) = recorded(seed: 7, decisions: 20_000)
    #expect(chooser.decisions.count == 20_000)
    let text = ScheduleString.encode(chooser.decisions)
    #expect(text.hasPrefix("s1:20000:"))
    let script = try ScheduleString.decode(text)
    #expect(script.count == 20_000)
    var replay = ScheduleChooser(seed: nil, script: script, recording: true)
    let replayed = (0..<20_000).map { index in replay.pick(among: 2 + index % 3) }
    #expect(replayed == picks)
    #expect(replay.divergence == nil)
    #expect(replay.decisions == chooser.decisions)
  }

  @Test func onlyDeviationsAreWrittenAndSinglesAreNoDecision() throws {
    var chooser = ScheduleChooser(
      seed: nil, script: [.init(choice: 0, count: 0), .init(choice: 2, count: 3)], recording: true)
    #expect(chooser.pick(among: 1) == 0)  // one candidate: no decision
    #expect(chooser.pick(among: 4) == 0)
    #expect(chooser.pick(among: 3) == 2)
    #expect(chooser.pick(among: 2) == 0)  // the script ended: arrival order
    #expect(ScheduleString.encode(chooser.decisions) == "s1:3:1=2/3")
    #expect(ScheduleString.deviations(chooser.decisions) == 1)
  }

  @Test func aStaleScheduleStopsWhereItNoLongerFitsThenPicksBySeed() throws {
    let script = try ScheduleString.decode("s1:4:1=1/2,3=1/2")
    var chooser = ScheduleChooser(seed: 3, script: script, recording: true)
    #expect(chooser.pick(among: 5) == 0)
    _ = chooser.pick(among: 3)  // recorded with 2 candidates: the app changed
    #expect(chooser.divergence == 1)
    var seeded = ScheduleChooser(seed: 3)
    let expected = (0..<5).map { _ in seeded.pick(among: 2) }
    // From the divergence on, the seed picks (its first draw went to the mismatched one).
    #expect(chooser.decisions.count == 2)
    let rest = (0..<4).map { _ in chooser.pick(among: 2) }
    #expect(rest == Array(expected[1...4]))
  }

  @Test func badStringsAreProblemsNotCrashes() {
    for text in [
      "", "s2:1:", "s1:x:", "s1:2:5=1/2", "s1:3:1=0/2", "s1:3:1=2/2", "s1:3:2=1/2,1=1/2", "s1:-1:",
    ] {
      #expect(throws: ScheduleString.Problem.self, "\(text)") { try ScheduleString.decode(text) }
    }
    #expect((try? ScheduleString.decode("s1:0:"))?.isEmpty == true)
  }
}
