import Synchronization
import WeftCore

/// A stand-in for a view: it stores the last value it was given.
final class Sink: Sendable {
  let last = Atomic<Int>(0)
  @inline(__always) func take(_ value: Int) { last.store(value, ordering: .relaxed) }
}

/// The benchmark's state: one watched value plus unrelated fields.
struct BenchState: Sendable, Equatable {
  var value = 0
  var other = 0
}

/// One way of telling N subscribers about a change; measured per commit.
@MainActor
protocol FanOutScenario: AnyObject {
  /// The name in the report.
  static var name: String { get }
  /// Subscribers notified per commit (what "per delivery" divides by).
  var deliveriesPerCommit: Int { get }
  /// Makes the scenario with `subscribers` subscribers.
  init(subscribers: Int) async
  /// Performs `commits` commits, each delivered to every subscriber before the next.
  func run(commits: Int, from start: Int) async
  /// Every subscriber's last received value, to check that each one really was called.
  var sinks: [Sink] { get }
}

/// The floor: a plain loop over N closures.
final class ClosureLoop: FanOutScenario {
  static let name = "closure loop (floor)"
  let closures: [(Int) -> Void]
  let sinks: [Sink]
  var deliveriesPerCommit: Int { closures.count }

  init(subscribers: Int) {
    sinks = (0..<subscribers).map { _ in Sink() }
    closures = sinks.map { sink in { sink.take($0) } }
  }

  func run(commits: Int, from start: Int) {
    for commit in start..<(start + commits) {
      for closure in closures { closure(commit) }
    }
  }
}

/// WeftCore, synchronous delivery in the committing isolation.
final class WeftSynchronous: FanOutScenario {
  static let name = "WeftCore synchronous"
  let cell = StateCell(BenchState(), name: "bench.sync")
  var subscriptions: [StateSubscription] = []
  let sinks: [Sink]
  var deliveriesPerCommit: Int { sinks.count }

  init(subscribers: Int) {
    sinks = (0..<subscribers).map { _ in Sink() }
    subscriptions = sinks.map { sink in
      cell.observeSynchronously(\.value) { sink.take($0.value) }
    }
  }

  func run(commits: Int, from start: Int) {
    for commit in start..<(start + commits) {
      cell.update { $0.value = commit }
    }
  }
}

/// WeftCore, MainActor delivery: each commit is one burst, drained by one MainActor job.
@MainActor
final class WeftMainActor: FanOutScenario {
  static let name = "WeftCore MainActor (coalesced)"
  let cell = StateCell(BenchState(), name: "bench.main")
  var subscriptions: [StateSubscription] = []
  let sinks: [Sink]
  var deliveriesPerCommit: Int { sinks.count }

  init(subscribers: Int) {
    sinks = (0..<subscribers).map { _ in Sink() }
    subscriptions = sinks.map { sink in
      cell.observeOnMainActor(\.value) { sink.take($0.value) }
    }
  }

  func run(commits: Int, from start: Int) {
    for commit in start..<(start + commits) {
      cell.update { $0.value = commit }
      cell.deliverPendingMainActorChanges()
    }
  }
}

/// Runs `body` once per step, each step in its own MainActor job, each job enqueued by the
/// one before (`Task { @MainActor … }`, which the runtime puts on the MainActor's queue
/// directly), and returns after the last.
///
/// This is how the job rows let the MainActor run a commit's drain job between commits
/// without measuring something else: `await Task.yield()` on the MainActor, which the first
/// version of these rows used, enqueues the task on the global executor on Linux, so every
/// yield was a hop to a pool thread and back (two cross-thread wakes: ≈ 4 futex calls and
/// 10–30 µs per yield, measured with strace). A continuation resumed on the MainActor does the
/// same (it resumes on the global executor, then hops). In a chain the MainActor's queue
/// never empties — a step enqueues the next step behind the drain job its commit scheduled —
/// so the thread draining it never sleeps; what a step costs beyond `body` (one task: create,
/// enqueue, run, free) is measured alone by `MainActorTaskChain`.
@MainActor
final class MainActorChain {
  private var remaining = 0
  private var body: () -> Void = {}
  private var done: UnsafeContinuation<Void, Never>?

  func run(steps: Int, _ body: @escaping () -> Void) async {
    guard steps > 0 else { return }
    self.body = body
    remaining = steps
    await withUnsafeContinuation { (done: UnsafeContinuation<Void, Never>) in
      self.done = done
      Task { @MainActor in self.step() }
    }
    self.body = {}
  }

  private func step() {
    body()
    remaining -= 1
    if remaining == 0 {
      done?.resume()
      done = nil
    } else {
      Task { @MainActor in self.step() }
    }
  }
}

/// WeftCore, MainActor delivery through the real job: every commit runs in its own MainActor
/// job (`MainActorChain`) and schedules the one `MainActorDeliveries` drain job, which runs
/// before the next commit's job. The figure is the commit, the job's creation and
/// enqueueing, the drain and the delivery, plus one chain step (`MainActorTaskChain`).
@MainActor
final class WeftMainActorJob: FanOutScenario {
  static let name = "WeftCore MainActor (job included)"
  let cell = StateCell(BenchState(), name: "bench.main.job")
  var subscriptions: [StateSubscription] = []
  let sinks: [Sink]
  let chain = MainActorChain()
  var deliveriesPerCommit: Int { sinks.count }

  init(subscribers: Int) {
    sinks = (0..<subscribers).map { _ in Sink() }
    subscriptions = sinks.map { sink in
      cell.observeOnMainActor(\.value) { sink.take($0.value) }
    }
  }

  func run(commits: Int, from start: Int) async {
    var next = start
    let cell = cell
    await chain.run(steps: commits) {
      cell.update { $0.value = next }
      next += 1
    }
    // The last commit's job is queued ahead of this task's resumption, which went through
    // the global executor: it has run.
  }
}

/// One chain step alone, for reading the job-included figure: a MainActor task that
/// enqueues the next (create, enqueue, run, free) and nothing else.
@MainActor
final class MainActorTaskChain: FanOutScenario {
  static let name = "MainActor task chain alone"
  let sinks: [Sink] = []
  let chain = MainActorChain()
  var deliveriesPerCommit: Int { 0 }

  init(subscribers: Int) {}

  func run(commits: Int, from start: Int) async {
    await chain.run(steps: commits) {}
  }
}

/// `await Task.yield()` on the MainActor, what the job rows first used to let the job run:
/// on Linux a hop to the global executor and back (two cross-thread wakes).
@MainActor
final class MainActorTaskYield: FanOutScenario {
  static let name = "Task.yield() alone (hops off)"
  let sinks: [Sink] = []
  var deliveriesPerCommit: Int { 0 }

  init(subscribers: Int) {}

  func run(commits: Int, from start: Int) async {
    for _ in 0..<commits { await Task.yield() }
  }
}
