import Testing
import WeftRuntime

@testable import SimulatorKit

/// The exhaustive walk's order and bound over a decision tree of its own (no app).
@Suite struct ExhaustiveWalkTests {
  typealias Decision = ScheduleChooser.Decision

  /// Walks a tree where every schedule makes `depth` decisions among 3 candidates, the
  /// default being candidate `default` (the last job enqueued it) at every decision.
  func walk(depth: Int, default first: UInt32, bound: Int) -> [[UInt32]] {
    var prefix: [Decision] = []
    var schedules: [[UInt32]] = []
    while schedules.count < 1_000 {
      var chooser = ScheduleChooser(goingOnAfter: prefix)
      for _ in 0..<depth {
        _ = chooser.pick(among: 3, key: { UInt64($0) }, continuing: { $0 == Int(first) })
      }
      schedules.append(chooser.decisions.map(\.choice))
      guard let next = ExhaustiveWalk.nextPrefix(after: chooser.decisions, bound: bound) else {
        break
      }
      prefix = next
    }
    return schedules
  }

  @Test func theDefaultRunsFirstAndEachOtherChoiceCostsOnePreemption() {
    #expect(walk(depth: 2, default: 1, bound: 0) == [[1, 1]])
    let one = walk(depth: 2, default: 1, bound: 1)
    #expect(one == [[1, 1], [1, 0], [1, 2], [0, 1], [2, 1]])
    // Every distinct schedule within the bound, once: 1 + 2·2 + 2·2 = 9 with two.
    let two = walk(depth: 2, default: 1, bound: 2)
    #expect(two.count == 9 && Set(two.map { $0.map(Int.init) }).count == 9)
  }

  @Test func withoutAContinuingJobTheDefaultIsArrivalOrder() {
    #expect(ExhaustiveWalk.nextChoice(after: Decision(choice: 0, count: 3)) == 1)
    #expect(ExhaustiveWalk.nextChoice(after: Decision(choice: 2, count: 3)) == nil)
    let goesOn = Decision(choice: 2, count: 3, continuing: 0b100)
    #expect(ExhaustiveWalk.nextChoice(after: goesOn) == 0)
    #expect(
      ExhaustiveWalk.nextChoice(after: Decision(choice: 1, count: 3, continuing: 0b100)) == nil)
    #expect(ExhaustiveWalk.preemptions([goesOn, Decision(choice: 1, count: 2)]) == 1)
  }
}
