/// One job as the deterministic runtime ran it: what a determinism check compares between two
/// runs of the same flow and seed (`JobTrace`).
///
/// - Note: Isolation: a `Sendable` value.
public struct JobRecord: Sendable, Equatable, Codable {
  /// The job's position in the run, from 0.
  public var index: UInt64
  /// `main` (the MainActor's lane) or `global` (tasks, actors, Weft's own bodies).
  public var lane: String
  /// The id of the job's task (Swift numbers tasks as they are created), or 0 for a body
  /// Weft's own code handed the runtime (a SQLite job, an observation pass).
  public var task: UInt64
  /// How many jobs were ready to run when this one was chosen.
  public var runnable: Int
  /// Virtual time when it ran, in nanoseconds.
  public var virtualTime: UInt64
  /// Whether a thread outside the runtime enqueued it: such a job arrives at a moment that
  /// real time decides, the usual cause of a run that does not repeat.
  public var fromOtherThread: Bool
  /// The last mark set before it (`DeterministicRuntime.markJobTrace(_:)`): the flow step.
  public var mark: String
  /// The task's name (`Task(name:)`, or one the runner gave it), for a job of no task (a
  /// default actor's drain job) the name of the task seen running in it; `nil` when unnamed
  /// or unseen.
  public var name: String?
  /// For a job of no task: the first task seen running in it (or the one it enqueued); for a
  /// job of a task: the first other task it woke or started.
  public var inside: UInt64?
  /// For a job of a task: the name of the task it woke or started (`inside`), if named.
  public var wakes: String?
  /// When the schedule preempted to run it (`ScheduleChooser.Decision.isPreemption`, recorded
  /// schedules only): `2nd of 3 ready`, or `timer 2 of 2 due together` for a timer fired
  /// before it.
  public var deviation: String?

  /// Makes a record.
  ///
  /// - Complexity: O(1).
  public init(
    index: UInt64, lane: String, task: UInt64, runnable: Int, virtualTime: UInt64,
    fromOtherThread: Bool, mark: String, name: String? = nil, inside: UInt64? = nil,
    deviation: String? = nil
  ) {
    self.index = index
    self.lane = lane
    self.task = task
    self.runnable = runnable
    self.virtualTime = virtualTime
    self.fromOtherThread = fromOtherThread
    self.mark = mark
    self.name = name
    self.inside = inside
    self.deviation = deviation
  }

  /// What ran: `task 12 on the main lane with 3 runnable at 1200.0 ms` (and `(enqueued by
  /// another thread)` when it was).
  ///
  /// - Complexity: O(1).
  public var action: String {
    let who = task == 0 ? "a runtime body" : "task \(task)"
    var text =
      "\(who) on the \(lane) lane with \(runnable) runnable at "
      + "\(Double(virtualTime) / 1_000_000) ms"
    if fromOtherThread { text += " (enqueued by another thread)" }
    return text
  }

  /// `job 57: ` and the `action`.
  ///
  /// - Complexity: O(1).
  public var summary: String { "job \(index): \(action)" }
}
