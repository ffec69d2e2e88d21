import WeftRuntime

/// A failing schedule as a person reads it: the jobs around its preemptions (choices other
/// than going on with what ran last, `ExhaustiveWalk`), each with the task that ran (`Task(name:)`, or the flow command that started it —
/// `count.add (line 7)`), its lane, and the flow step it ran in, the preemptions marked.
///
/// ```
///   trace (jobs 8–14 of 25; ▶ a preemption):
///     step 3, line 7: together { count.addAudited ; count.add }
///       job 8   main    'count.addAudited (line 7)'
///     ▶ job 9   global  'count.add (line 7)' — 2nd of 3 ready
///       job 10  global  an actor's queue, running 'count.add (line 7)'
/// ```
///
/// - Note: Isolation: pure functions.
enum ExploreTrace {
  /// Jobs shown before the first preemption, and at least after the last.
  static let context = 3
  /// What the trace calls the flow runner's own task.
  static let runner = "the flow"
  /// The most jobs shown.
  static let limit = 24

  /// The lines of the trace of `records` (a run's `JobRecord`s), indented by two spaces;
  /// empty when nothing preempted.
  ///
  /// - Complexity: O(n), n = records.
  static func lines(_ records: [JobRecord]) -> [String] {
    let deviating = records.indices.filter { records[$0].deviation != nil }
    guard let first = deviating.first, let last = deviating.last else { return [] }
    let start = max(records.startIndex, first - context)
    // After the last preemption, on until a task other than the one it ran goes on (the
    // one it cut in on, most often), and one job more.
    let cutIn = records[last].name ?? records[last].wakes
    let resumed = records[(last + 1)...].firstIndex { record in
      record.name != nil && record.name != cutIn && record.name != runner
    }
    let end = min(records.endIndex, max(last + context, resumed ?? 0) + 2, start + limit)
    let width = String(records[end - 1].index).count
    var lines = [
      "  trace (jobs \(records[start].index)–\(records[end - 1].index) of \(records.count); "
        + "▶ a preemption):"
    ]
    var mark: String?
    for record in records[start..<end] {
      if record.mark != mark, !record.mark.isEmpty {
        lines.append("    \(record.mark)")
      }
      mark = record.mark
      let number = String(record.index).padding(toLength: width, withPad: " ", startingAt: 0)
      let lane = record.lane.padding(toLength: 6, withPad: " ", startingAt: 0)
      var line = "    \(record.deviation == nil ? " " : "▶") job \(number)  \(lane)  \(who(record))"
      if let deviation = record.deviation { line += " — \(deviation)" }
      lines.append(line)
    }
    if end < records.endIndex, let tail = deviating.last, tail >= end {
      lines.append("    … (more preemptions after job \(records[end - 1].index))")
    }
    return lines
  }

  /// `'count.add (line 7)'`, `an actor's queue, running 'count.add (line 7)'`, `an unnamed
  /// task, waking 'feed.refresh (line 7)'` (a sleep's timer). Task ids are left out: they
  /// count up over the process, so they differ between runs of the same schedule.
  static func who(_ record: JobRecord) -> String {
    let named = record.name.map { "'\($0)'" }
    if record.task != 0 {
      if let named { return named }
      return record.wakes.map { "an unnamed task, waking '\($0)'" } ?? "an unnamed task"
    }
    guard let named else { return "a job of no task (an actor's queue, or Weft's own)" }
    return "an actor's queue, running \(named)"
  }
}
