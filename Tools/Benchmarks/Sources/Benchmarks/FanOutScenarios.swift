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
  var subscriptions: [Subscription] = []
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
  var subscriptions: [Subscription] = []
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

/// WeftCore, MainActor delivery through the real job: each commit schedules the one
/// `MainActorDeliveries` drain job, and the benchmark then yields the MainActor once
/// (`await Task.yield()`), which runs that job before the benchmark resumes. The figure
/// includes the job's creation, its enqueueing on the MainActor, the drain and the yield.
@MainActor
final class WeftMainActorJob: FanOutScenario {
  static let name = "WeftCore MainActor (job included)"
  let cell = StateCell(BenchState(), name: "bench.main.job")
  var subscriptions: [Subscription] = []
  let sinks: [Sink]
  var deliveriesPerCommit: Int { sinks.count }

  init(subscribers: Int) {
    sinks = (0..<subscribers).map { _ in Sink() }
    subscriptions = sinks.map { sink in
      cell.observeOnMainActor(\.value) { sink.take($0.value) }
    }
  }

  func run(commits: Int, from start: Int) async {
    for commit in start..<(start + commits) {
      cell.update { $0.value = commit }
      await Task.yield()
    }
  }
}

/// The yield alone, for reading the job-included figure: what `await Task.yield()` on the
/// MainActor costs with no commit and no job.
@MainActor
final class MainActorYield: FanOutScenario {
  static let name = "MainActor yield alone (no commit)"
  let sinks: [Sink] = []
  var deliveriesPerCommit: Int { 0 }

  init(subscribers: Int) {}

  func run(commits: Int, from start: Int) async {
    for _ in 0..<commits { await Task.yield() }
  }
}
