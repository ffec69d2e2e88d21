import Foundation
import Observation
import Synchronization
import WeftCore
import WeftObservation

// The Observation bridge against plain Observation, in the fan-out run:
//   swift run -c release --package-path Tools/Benchmarks weft-bench fanout [--quick]
//
// N trackers (`withObservationTracking`, re-armed after each invalidation as SwiftUI
// re-renders) read one property. Timed: the change and every `onChange` it causes —
// for the bridge a commit plus the MainActor delivery job's body
// (`deliverPendingMainActorChanges()`, run synchronously; the job's Task hop, one per burst,
// is not included), for plain Observation the property set. Re-arming is not timed (it is
// the same `withObservationTracking` call for both).

/// The state a client owns in the benchmark.
struct BenchProfile: Sendable, Equatable {
  struct Summary: Sendable, Equatable {
    var steps = 0
    var heartRate = 60
  }
  var hot = 0
  var cold = 0
  var unread = 0
  var summary = Summary()
}

/// The same fields in a plain `@Observable` view model, mutated directly.
@Observable
@MainActor
final class PlainProfile {
  var hot = 0
  var cold = 0
  var unread = 0
  var summary = BenchProfile.Summary()
}

/// One tracker: a stand-in for a view body. `onChange` is `@Sendable`; it runs on the
/// MainActor here, and the flag is atomic anyway.
final class BenchTracker: Sendable {
  let dirty = Atomic<Bool>(true)
  let fired = Atomic<Int>(0)

  func fire() {
    fired.add(1, ordering: .relaxed)
    dirty.store(true, ordering: .relaxed)
  }
}

/// One scenario: how tracker `i` reads, and what one timed change does.
@MainActor
struct ObservationCase {
  let name: String
  let read: (Int) -> Void
  let change: (Int) -> Void
}

@MainActor
struct ObservationBenchmark {
  let sizes: [Int]
  let rounds: Int

  struct Row {
    let trackers: Int
    let scenario: String
    let nsPerChange: Spread
    let invalidationsPerChange: Int
  }

  /// Runs `scenario` with `n` trackers: `changes` timed changes per round; between changes
  /// the invalidated trackers are re-armed (untimed), as a UI re-renders them.
  func measure(_ n: Int, changes: Int, _ scenario: ObservationCase) -> Row {
    let trackers = (0..<n).map { _ in BenchTracker() }
    func rearm() {
      for (index, tracker) in trackers.enumerated()
      where tracker.dirty.exchange(false, ordering: .relaxed) {
        withObservationTracking {
          scenario.read(index)
        } onChange: {
          tracker.fire()
        }
      }
    }
    var samples: [Double] = []
    var fired = 0
    var step = 0
    for _ in 0..<rounds {
      rearm()
      var elapsed: UInt64 = 0
      for _ in 0..<changes {
        step += 1
        let start = wallNanoseconds()
        scenario.change(step)
        elapsed += wallNanoseconds() - start
        rearm()
      }
      samples.append(Double(elapsed) / Double(changes))
    }
    fired = trackers.reduce(0) { $0 + $1.fired.load(ordering: .relaxed) }
    return Row(
      trackers: n, scenario: scenario.name, nsPerChange: Spread(samples),
      invalidationsPerChange: fired / (changes * rounds))
  }

  /// A bridge scenario: trackers read `model.hot` (if `readsHot`) or `model.cold`.
  func bridge(
    _ name: String, readsHot: @escaping (Int) -> Bool,
    change: @escaping (StateCell<BenchProfile>, Int) -> Void
  ) -> ObservationCase {
    let cell = StateCell(BenchProfile(), name: "ObservationBench")
    let model = ObservedState(cell)
    return ObservationCase(
      name: "bridge: " + name,
      read: { index in blackHole(readsHot(index) ? model.hot : model.cold) },
      change: { step in
        change(cell, step)
        cell.deliverPendingMainActorChanges()
      })
  }

  /// The same with a plain `@Observable` class mutated directly.
  func plain(
    _ name: String, readsHot: @escaping (Int) -> Bool,
    change: @escaping (PlainProfile, Int) -> Void
  ) -> ObservationCase {
    let model = PlainProfile()
    return ObservationCase(
      name: "plain:  " + name,
      read: { index in blackHole(readsHot(index) ? model.hot : model.cold) },
      change: { step in change(model, step) })
  }

  func run() -> [Row] {
    var rows: [Row] = []
    for n in sizes {
      let changes = max(20, 100_000 / n)
      let hot = max(1, n / 100)  // trackers reading the changed property in the 1% rows
      let cell = StateCell(BenchProfile(), name: "ObservationBenchNested")
      let nestedModel = ObservedState(cell)
      let plainNested = PlainProfile()
      let all: (Int) -> Bool = { _ in true }
      let none: (Int) -> Bool = { _ in false }
      let onePercent: (Int) -> Bool = { $0 < hot }
      let cases = [
        bridge(
          "change the property all read", readsHot: all,
          change: { cell, step in cell.update { $0.hot = step } }),
        plain("set the property all read", readsHot: all, change: { $0.hot = $1 }),
        bridge(
          "change a property nobody reads", readsHot: none,
          change: { cell, step in cell.update { $0.unread = step } }),
        plain("set a property nobody reads", readsHot: none, change: { $0.unread = $1 }),
        bridge(
          "1% read the change; whole state written", readsHot: onePercent,
          change: { cell, step in cell.update { $0 = BenchProfile(hot: step) } }),
        plain(
          "1% read the change; every field set", readsHot: onePercent,
          change: { model, step in
            model.hot = step
            model.cold = 0
            model.unread = 0
            model.summary = BenchProfile.Summary()
          }),
        ObservationCase(
          name: "bridge: all read summary.steps; heartRate changes",
          read: { _ in blackHole(nestedModel[\.summary.steps]) },
          change: { step in
            cell.update { $0.summary.heartRate = step }
            cell.deliverPendingMainActorChanges()
          }),
        ObservationCase(
          name: "plain:  all read summary.steps; heartRate changes",
          read: { _ in blackHole(plainNested.summary.steps) },
          change: { step in plainNested.summary.heartRate = step }),
      ]
      for scenario in cases { rows.append(measure(n, changes: changes, scenario)) }
    }
    return rows
  }
}

/// Prints the bridge-vs-plain table (part of `weft-bench fanout`). With
/// `WEFT_BENCH_OBSERVATION_PROFILE=bridge` (or `plain`) it runs only that side's N = 1
/// "change the property all read" case, 2,000,000 changes, for a profiler; prints nothing.
@MainActor
func runObservationReport(quick: Bool) {
  if let side = ProcessInfo.processInfo.environment["WEFT_BENCH_OBSERVATION_PROFILE"] {
    let bench = ObservationBenchmark(sizes: [1], rounds: 1)
    let scenario =
      side == "plain"
      ? bench.plain("set the property all read", readsHot: { _ in true }, change: { $0.hot = $1 })
      : bench.bridge(
        "change the property all read", readsHot: { _ in true },
        change: { cell, step in cell.update { $0.hot = step } })
    _ = bench.measure(1, changes: 2_000_000, scenario)
    return
  }
  let rounds = quick ? 3 : 7
  print("")
  print("# Observation bridge vs plain @Observable (wall time per change, median of \(rounds))")
  print(
    pad("N", 7) + "  " + "scenario".padding(54) + pad("ns/change", 18) + pad("inval/change", 14))
  let rows = ObservationBenchmark(sizes: [1, 100, 10_000], rounds: rounds).run()
  for row in rows {
    print(
      pad(format(Double(row.trackers), digits: 0), 7) + "  " + row.scenario.padding(54)
        + pad(row.nsPerChange.description, 18)
        + pad(format(Double(row.invalidationsPerChange), digits: 0), 14))
  }
}
