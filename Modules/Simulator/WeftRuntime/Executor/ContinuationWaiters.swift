import CContinuationProbeLookup

/// A task the runtime last saw suspending on a continuation that it has not seen resumed:
/// what a stalled run, or a `wait` that timed out with nothing left to run, names.
///
/// - Note: Isolation: a `Sendable` value.
public struct ContinuationWaiter: Sendable, Equatable, CustomStringConvertible {
  /// The task's id (Swift's, unique in the process).
  public let taskID: UInt64
  /// The task's name (`Task(name:)`), if it has one.
  public let name: String?

  /// Makes a waiter.
  ///
  /// - Complexity: O(1).
  public init(taskID: UInt64, name: String?) {
    self.taskID = taskID
    self.name = name
  }

  /// `'name' (task 12)`, or `task 12` for an unnamed task.
  public var description: String {
    name.map { "'\($0)' (task \(taskID))" } ?? "task \(taskID)"
  }
}

/// The runtime's side of CContinuationProbe (linked by simulator executables only, found
/// through weak references): start it, tell it about enqueued jobs, read who waits.
enum ContinuationProbe {
  static let capacity = 64
  static let nameSize = 64

  /// Starts recording (the runtime's install).
  static func start() { weft_continuation_probe_start() }

  /// The id of `job`'s task (0 when the probe is not linked, or for a job of no task).
  static func taskID(of job: UnownedJob) -> UInt64 {
    weft_continuation_probe_task_of_job(unsafeBitCast(job, to: UnsafeRawPointer.self))
  }

  /// The task running on the calling thread: its id (0: none, or no probe linked) and name.
  ///
  /// - Complexity: O(1).
  static func runningTask() -> (id: UInt64, name: String?) {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: nameSize) { buffer in
      let id = weft_continuation_probe_running_task(buffer.baseAddress, Int32(nameSize))
      let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      return (id, bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self))
    }
  }

  /// A job was enqueued: a task that waited is running again.
  ///
  /// - Complexity: O(1) while no task waits; O(w) otherwise, w = waiting tasks (≤ 64).
  @inline(__always)
  static func noteEnqueued(_ job: UnownedJob) {
    // `UnownedJob` is a frozen struct holding exactly the job's pointer (a task's job is the
    // task), which is what the probe reads the task id from; it is not dereferenced here.
    weft_continuation_probe_note_enqueued(unsafeBitCast(job, to: UnsafeRawPointer.self))
  }

  /// The tasks last seen suspending on a continuation, or `nil` when no probe is linked.
  ///
  /// - Complexity: O(w), w = waiting tasks (≤ 64).
  static func waiters() -> [ContinuationWaiter]? {
    var ids = [UInt64](repeating: 0, count: capacity)
    var names = [CChar](repeating: 0, count: capacity * nameSize)
    let count = ids.withUnsafeMutableBufferPointer { idBuffer in
      names.withUnsafeMutableBufferPointer { nameBuffer in
        weft_continuation_probe_copy_waiters(
          idBuffer.baseAddress, nameBuffer.baseAddress, Int32(capacity), Int32(nameSize))
      }
    }
    guard count >= 0 else { return nil }
    return (0..<Int(count)).map { index in
      let start = index * nameSize
      let bytes = names[start..<start + nameSize].prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      let name = String(decoding: bytes, as: UTF8.self)
      return ContinuationWaiter(taskID: ids[index], name: name.isEmpty ? nil : name)
    }.sorted { $0.taskID < $1.taskID }
  }

  /// One clause for a diagnostic: who waits, or why nobody can be named.
  static func describeWaiters() -> String {
    guard let waiters = waiters() else {
      return "tasks suspended on a continuation cannot be named: this executable does not "
        + "link CContinuationProbe (SimulatorKit does)"
    }
    guard !waiters.isEmpty else {
      return "no task was seen suspending on a continuation that stayed unresumed (the "
        + "Swift runtime's own continuations — AsyncStream's, or withCheckedContinuation in a "
        + "debug build — are not seen)"
    }
    return summary(of: waiters)
  }

  /// `tasks last seen suspending on a continuation that nothing resumed: 'name' (task 7), …`
  static func summary(of waiters: [ContinuationWaiter]) -> String {
    "tasks last seen suspending on a continuation that nothing resumed: "
      + waiters.map(\.description).joined(separator: ", ")
  }
}
