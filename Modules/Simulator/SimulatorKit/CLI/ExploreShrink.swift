import WeftRuntime

extension ExploreCommand {
  /// Shrinks the first schedule of a failing outcome: replaces its preemptions (choices other
  /// than going on with what ran last, `ExhaustiveWalk`) by the default one at a time,
  /// keeping a change when the run still fails with the same first failure, until no single
  /// change does; then looks for a schedule with fewer preemptions still by the exhaustive
  /// walk (`fewestPreemptions`), and runs the result once more with a job trace
  /// (`ExploreTrace`). `nil` when a run could not be prepared.
  func shrink(
    _ outcome: ExploreOutcomes.Outcome, of report: ExploreOutcomes,
    _ runtime: DeterministicRuntime
  ) async -> ExploreOutcomes.Minimal? {
    let first = outcome.schedules[0]
    var runs = 0
    var decisions: [ScheduleChooser.Decision]
    var script: [ScheduleChooser.Decision]?
    if let replay = outcome.replay {
      do throws(ScheduleString.Problem) {
        script = try ScheduleString.decode(replay)
      } catch {
        output.error(
          "note: the outcome's schedule string does not decode (\(error)); shrinking from its seed")
      }
    }
    // A run that records which jobs went on with what ran last (a decoded string does not
    // say): what counting preemptions needs.
    let original =
      script.map { ScheduleChooser(goingOnAfter: $0) }
      ?? report.chooser(for: first, recording: true)
    guard let run = await runOnce(original, runtime) else { return nil }
    runs += 1
    decisions = run.chooser.decisions
    let from = ExhaustiveWalk.preemptions(decisions)
    let symptom = outcome.failures.first
    var shrunk = true
    while shrunk, runs < Self.shrinkLimit {
      shrunk = false
      for index in decisions.indices.reversed() where decisions[index].isPreemption {
        guard runs < Self.shrinkLimit, index < decisions.count else { break }
        var candidate = decisions
        candidate[index].choice = candidate[index].defaultChoice
        // Past a decision that no longer fits, every decision takes its default.
        guard let run = await runOnce(ScheduleChooser(goingOnAfter: candidate), runtime) else {
          return nil
        }
        runs += 1
        let kept = run.chooser.decisions
        guard run.failures.first == symptom,
          ExhaustiveWalk.preemptions(kept) < ExhaustiveWalk.preemptions(decisions)
        else { continue }
        decisions = kept
        shrunk = true
      }
    }
    if let fewer = await fewestPreemptions(
      below: ExhaustiveWalk.preemptions(decisions), symptom: symptom, runs: &runs, runtime)
    {
      decisions = fewer
    }
    // Once more, traced: the jobs around its preemptions, by task name.
    guard
      let traced = await runOnce(ScheduleChooser(goingOnAfter: decisions), runtime, traced: true)
    else { return nil }
    return ExploreOutcomes.Minimal(
      schedule: ScheduleString.encode(decisions),
      deviations: ScheduleString.deviations(decisions), from: from, runs: runs,
      preemptions: ExhaustiveWalk.preemptions(decisions),
      trace: ExploreTrace.lines(traced.records))
  }

  /// The first schedule of the exhaustive walk with 0, then 1, … up to `bound` − 1
  /// preemptions whose first failure is `symptom`, within the shrinking's budget of runs:
  /// a local minimum of the one-at-a-time shrinking is not always the fewest. `nil` when
  /// none is found (or a run could not be prepared).
  ///
  /// - Complexity: at most `shrinkLimit` − `runs` runs of the flow.
  func fewestPreemptions(
    below bound: Int, symptom: String?, runs: inout Int, _ runtime: DeterministicRuntime
  ) async -> [ScheduleChooser.Decision]? {
    for preemptions in 0..<max(0, bound) {
      var prefix: [ScheduleChooser.Decision] = []
      while runs < Self.shrinkLimit {
        guard let run = await runOnce(ScheduleChooser(goingOnAfter: prefix), runtime) else {
          return nil
        }
        runs += 1
        if run.failures.first == symptom { return run.chooser.decisions }
        guard let next = ExhaustiveWalk.nextPrefix(after: run.chooser.decisions, bound: preemptions)
        else { break }
        prefix = next
      }
    }
    return nil
  }
}
