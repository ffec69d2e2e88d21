import WeftRuntime

/// The exhaustive strategy's walk of the decision tree: every distinct schedule with at most
/// `bound` preemptions, depth first. Every decision has a default choice, which goes on with
/// what ran last — the first job the previous job enqueued (its task after a yield, a hop to
/// an actor and back), or arrival order when it enqueued none — and any other choice costs a
/// preemption (`Decision.isPreemption`): with 0 preemptions each task runs as far as it can
/// before the next one starts (as CHESS's non-preemptive schedule), and each preemption
/// switches to another ready job in the middle. The walk's schedules take the default past
/// their forced prefix (`ScheduleChooser(goingOnAfter:)`).
///
/// - Note: Isolation: pure functions.
enum ExhaustiveWalk {
  /// The next schedule after one whose decisions were `decisions`: the deepest decision that
  /// can take a later candidate within `bound` preemptions, the same decisions before it;
  /// `nil` when every schedule within the bound has run.
  ///
  /// - Complexity: O(d·c), d = decisions, c = candidates per decision.
  static func nextPrefix(
    after decisions: [ScheduleChooser.Decision], bound: Int
  ) -> [ScheduleChooser.Decision]? {
    var before = [Int](repeating: 0, count: decisions.count + 1)
    for (index, decision) in decisions.enumerated() {
      before[index + 1] = before[index] + (decision.isPreemption ? 1 : 0)
    }
    for index in decisions.indices.reversed() where before[index] < bound {
      // The default was taken first; every other choice costs one preemption.
      var decision = decisions[index]
      guard let choice = nextChoice(after: decision) else { continue }
      decision.choice = choice
      return Array(decisions[..<index]) + [decision]
    }
    return nil
  }

  /// The choices of a decision in the walk's order: its default, then the others by index.
  static func nextChoice(after decision: ScheduleChooser.Decision) -> UInt32? {
    let first = decision.defaultChoice
    var choice = decision.choice == first ? 0 : decision.choice + 1
    if choice == first { choice += 1 }
    return choice < decision.count ? choice : nil
  }

  /// How many preemptions `decisions` take.
  ///
  /// - Complexity: O(d).
  static func preemptions(_ decisions: [ScheduleChooser.Decision]) -> Int {
    decisions.count(where: \.isPreemption)
  }
}
