/// The deterministic runtime's whole scheduling state, as a pure value: jobs ready to run,
/// timers parked on virtual time, and the virtual clock.
///
/// Two lanes: `main` (the MainActor's serial executor: its jobs run in arrival order) and
/// `global` (the global executor: default actors' drain jobs, detached tasks, task-group
/// children). `next()` takes the next job by the chooser: the oldest ready job in arrival
/// order, or, with a schedule seed, a draw among the global jobs and the oldest main job.
/// Timers fire in deadline order; ties fall to arrival order, or to a draw with a seed.
///
/// ```swift
/// var queue = RunQueue<String>()
/// queue.enqueue("a", lane: .global)
/// queue.schedule("t", lane: .global, after: 300_000_000)
/// queue.next()                     // "a"
/// queue.fireNextTimer(upTo: .max)  // now = 300 ms; "t" is ready
/// ```
///
/// - Complexity: `enqueue` O(1) amortized; `next` O(1) in arrival order, O(r) with a seed
///   or a script (r = ready jobs); `schedule` O(t) (t = timers, kept sorted); `fireNextTimer` O(t).
/// - Note: Isolation: a value type; `RuntimeLoop` keeps it inside one lock.
/// - Note: Allocations: amortized growth of its arrays only.
public struct RunQueue<Job> {
  /// Which executor a job was given to.
  public enum Lane: Sendable, Equatable {
    /// The MainActor's serial executor.
    case main
    /// The global (default) executor.
    case global
  }

  struct Entry {
    var job: Job
    var lane: Lane
    /// The job's task (PCT's priorities are per task): a task's id, or a number of its own
    /// for a job of no task.
    var key: UInt64
    /// The number of the job that enqueued it (`jobsRun` then), or `.max` when none was
    /// running (a timer, another thread).
    var enqueuer: UInt64
  }

  struct Timer {
    var deadline: UInt64
    var sequence: UInt64
    var entry: Entry
  }

  /// Virtual time, in nanoseconds since the runtime started.
  public private(set) var now: UInt64 = 0
  /// The policy for ready jobs and tied timers.
  public var chooser: ScheduleChooser
  private var ready: [Entry] = []
  private var head = 0
  private var timers: [Timer] = []
  private var sequence: UInt64 = 0
  /// Jobs taken by `next()` since the start: the schedule's length.
  public private(set) var jobsRun: UInt64 = 0
  /// Keys handed to jobs of no task.
  private var ownKeys: UInt64 = 0
  /// Candidate positions of the draw in progress (kept to reuse its storage).
  private var candidates: [Int] = []

  /// An empty queue at virtual time zero.
  ///
  /// - Complexity: O(1).
  public init(chooser: ScheduleChooser = .arrivalOrder) {
    self.chooser = chooser
  }

  /// Whether no job is ready (timers may still be parked).
  public var isIdle: Bool { head == ready.count }

  /// Jobs ready to run.
  public var readyCount: Int { ready.count - head }

  /// The earliest timer's deadline (virtual nanoseconds), if any.
  public var nextDeadline: UInt64? { timers.first?.deadline }

  /// Every parked timer's deadline and lane, earliest first.
  ///
  /// - Complexity: O(t).
  public var pendingTimers: [(deadline: UInt64, lane: Lane)] {
    timers.map { ($0.deadline, $0.entry.lane) }
  }

  /// Makes `job` ready on `lane`. `task` is the id of the job's task (0: none, or unknown);
  /// `byRunningJob` says the job now running enqueued it (its own continuation, a task it
  /// started), which makes running it next no preemption.
  ///
  /// - Complexity: O(1) amortized.
  public mutating func enqueue(_ job: Job, lane: Lane, task: UInt64 = 0, byRunningJob: Bool = true)
  {
    ready.append(
      Entry(
        job: job, lane: lane, key: key(task), enqueuer: byRunningJob && jobsRun > 0 ? jobsRun : .max
      )
    )
  }

  private mutating func key(_ task: UInt64) -> UInt64 {
    guard task == 0 else { return task }
    ownKeys &+= 1
    return 1 << 63 | ownKeys
  }

  /// Parks `job` until virtual time reaches `now + delay` (nanoseconds, saturating); `task`
  /// as for `enqueue`.
  ///
  /// - Complexity: O(t).
  public mutating func schedule(_ job: Job, lane: Lane, after delay: UInt64, task: UInt64 = 0) {
    let (deadline, overflow) = now.addingReportingOverflow(delay)
    sequence &+= 1
    let timer = Timer(
      deadline: overflow ? .max : deadline, sequence: sequence,
      entry: Entry(job: job, lane: lane, key: key(task), enqueuer: .max))
    let index = timers.firstIndex { $0.deadline > timer.deadline } ?? timers.endIndex
    timers.insert(timer, at: index)
  }

  /// Takes the next job to run, or `nil` when none is ready.
  ///
  /// - Complexity: O(1) in arrival order; O(r) with a schedule seed.
  public mutating func next() -> (job: Job, lane: Lane)? {
    guard !isIdle else { return nil }
    var index = head
    if chooser.draws, readyCount > 1 {
      index = drawIndex()
    }
    let entry = ready[index]
    if index != head {
      // Keep arrival order for the rest: shift the skipped jobs up by one.
      ready.withUnsafeMutableBufferPointer { buffer in
        var position = index
        while position > head {
          buffer.swapAt(position, position - 1)
          position -= 1
        }
      }
    }
    head += 1
    jobsRun &+= 1
    compact()
    return (entry.job, entry.lane)
  }

  /// Moves the earliest timer due by `limit` to the ready jobs and sets `now` to its
  /// deadline (never backwards). Ties fall to arrival order, or to a draw with a seed.
  ///
  /// - Returns: whether a timer fired.
  /// - Complexity: O(t).
  @discardableResult
  public mutating func fireNextTimer(upTo limit: UInt64) -> Bool {
    guard let first = timers.first, first.deadline <= limit else { return false }
    let tied = timers.prefix { $0.deadline == first.deadline }.count
    let parked = timers  // not read through `self` while the chooser is mutated
    let index = chooser.pick(
      among: tied, key: { parked[$0].entry.key }, continuing: { _ in false })
    let timer = timers.remove(at: index)
    now = max(now, timer.deadline)
    ready.append(timer.entry)
    return true
  }

  /// Moves virtual time to `instant` when it is later than `now` (no timer fires).
  ///
  /// - Complexity: O(1).
  public mutating func advanceTime(to instant: UInt64) {
    now = max(now, instant)
  }

  /// Drops every timer and ready job (a run's end), keeping virtual time and the chooser.
  ///
  /// - Complexity: O(r + t).
  public mutating func removeAll() -> [Job] {
    let dropped = ready[head...].map(\.job) + timers.map(\.entry.job)
    ready.removeAll()
    head = 0
    timers.removeAll()
    return dropped
  }

  /// A draw among the global jobs and the oldest main job (one main job is a candidate: the
  /// MainActor's jobs keep their order).
  private mutating func drawIndex() -> Int {
    candidates.removeAll(keepingCapacity: true)
    var sawMain = false
    for position in head..<ready.count {
      if ready[position].lane == .global {
        candidates.append(position)
      } else if !sawMain {
        sawMain = true
        candidates.append(position)
      }
    }
    // Local copies (no storage is copied): the closures must not read `self` while the
    // chooser, part of it, is being mutated.
    let (last, ready, candidates) = (jobsRun, ready, candidates)
    let pick = chooser.pick(
      among: candidates.count, key: { ready[candidates[$0]].key },
      continuing: { ready[candidates[$0]].enqueuer == last })
    return candidates[pick]
  }

  /// Drops the consumed prefix once it is most of the array.
  private mutating func compact() {
    if head == ready.count {
      ready.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 64, head * 2 > ready.count {
      ready.removeFirst(head)
      head = 0
    }
  }
}

extension RunQueue: Sendable where Job: Sendable {}
extension RunQueue.Entry: Sendable where Job: Sendable {}
extension RunQueue.Timer: Sendable where Job: Sendable {}
