import Testing

@testable import WeftRuntime

@Suite("PCTPolicy: priorities and change points over the runtime's jobs")
struct PCTPolicyTests {
  /// Two tasks (keys 1 and 2), each with a job ready at every decision.
  func picks(_ chooser: inout ScheduleChooser, decisions: Int) -> [UInt64] {
    (0..<decisions).map { _ in
      let keys: [UInt64] = [1, 2]
      return keys[chooser.pick(among: 2, key: { keys[$0] }, continuing: { _ in false })]
    }
  }

  @Test func depthOneRunsTheSameTaskWhileItIsReady() {
    var tasks = Set<UInt64>()
    for seed in UInt64(1)...50 {
      var chooser = ScheduleChooser(pct: .init(depth: 1, steps: 10), seed: seed)
      let run = picks(&chooser, decisions: 10)
      #expect(Set(run).count == 1, "seed \(seed): \(run)")
      tasks.formUnion(run)
    }
    #expect(tasks == [1, 2])  // which task is first is drawn
  }

  @Test func aChangePointSwitchesToTheOtherTaskOnce() {
    var switchedAt = Set<Int>()
    for seed in UInt64(1)...50 {
      var chooser = ScheduleChooser(pct: .init(depth: 2, steps: 10), seed: seed)
      let run = picks(&chooser, decisions: 10)
      let switches = zip(run, run.dropFirst()).count { $0 != $1 }
      #expect(switches <= 1, "seed \(seed): \(run)")
      if switches == 1, let at = run.firstIndex(where: { $0 != run[0] }) { switchedAt.insert(at) }
    }
    #expect(switchedAt.count > 3)  // the change point is drawn among the 10 decisions
  }

  @Test func aSeedReplaysAndItsRecordingReplaysAsAScheduleString() throws {
    var first = ScheduleChooser(pct: .init(depth: 3, steps: 20), seed: 9, recording: true)
    var second = ScheduleChooser(pct: .init(depth: 3, steps: 20), seed: 9)
    let run = picks(&first, decisions: 20)
    #expect(picks(&second, decisions: 20) == run)
    let script = try ScheduleString.decode(ScheduleString.encode(first.decisions))
    var replay = ScheduleChooser(seed: nil, script: script, recording: false)
    #expect(picks(&replay, decisions: 20) == run)
  }

  @Test func theReplayArgumentParsesBack() throws {
    let parameters = PCTPolicy.Parameters(depth: 3, steps: 12)
    let text = parameters.argument(seed: 17)
    #expect(text == "pct:3:12:17")
    let parsed = try #require(PCTPolicy.Parameters.parse(text))
    #expect(parsed.0 == parameters && parsed.seed == 17)
    for bad in ["pct:0:12:17", "pct:3:12:0", "pct:3:17", "pct:x:1:1", "3:12:17"] {
      #expect(PCTPolicy.Parameters.parse(bad) == nil, "\(bad)")
    }
  }

  @Test func theDefaultChoiceGoesOnWithWhatRanLast() {
    var chooser = ScheduleChooser(goingOnAfter: [])
    // Candidate 2 was enqueued by the job that ran last: taken, and no preemption.
    #expect(chooser.pick(among: 3, key: { UInt64($0) }, continuing: { $0 == 2 }) == 2)
    // None was: arrival order.
    #expect(chooser.pick(among: 3, key: { UInt64($0) }, continuing: { _ in false }) == 0)
    #expect(chooser.decisions.map(\.isPreemption) == [false, false])
    #expect(chooser.decisions[0].isPreemption(0) && !chooser.decisions[0].isPreemption(2))
  }
}
