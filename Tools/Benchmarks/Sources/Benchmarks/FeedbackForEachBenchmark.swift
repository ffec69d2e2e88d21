import BenchMallocCounter
import WeftCore
import WeftFeedback

/// `Feedback.forEach` over a set and over a keyed map: the cost of one event that changes one
/// element while n element effects are live, against the same system without the feedback.
///
/// Set row: the event swaps one element for another (one effect cancelled, one started).
/// Keyed row: the event changes one key's value (no restart; the value is yielded to the
/// key's running effect, which reads it). Baseline: the same state, reducer and events in a
/// system with no feedback (the reducer's copy-on-write copy of the collection, the commit).
/// Each figure includes the effect tasks' work the event causes (a cancelled task ending, a
/// started one parking, a streamed value read): the batch is timed until every effect is
/// parked again.
///
/// Allocations are counted by CMallocCounter (the root package's malloc interposer, linked
/// into weft-bench through the `Sources/BenchMallocCounter` symlink); 0 when not counting.
@MainActor
struct FeedbackForEachBenchmark {
  struct Row {
    let elements: Int
    let scenario: String
    let nsPerEvent: Spread
    let allocationsPerEvent: Double
  }

  struct Rows: Sendable, Equatable {
    var set: Set<Int> = []
    var keyed: [Int: Int] = [:]
  }

  enum Event: Sendable {
    case swap(out: Int, in: Int)
    case change(key: Int, value: Int)
  }

  nonisolated static func reduce(_ state: inout Rows, _ event: Event) {
    switch event {
    case .swap(let out, let new):
      state.set.remove(out)
      state.set.insert(new)
    case .change(let key, let value):
      state.keyed[key] = value
    }
  }

  let sizes: [Int]
  let rounds: Int

  func run() async -> [Row] {
    var rows: [Row] = []
    for size in sizes {
      let events = max(20, min(20_000, 2_000_000 / size))
      for scenario in ["no feedback (set)", "forEach over a Set", "no feedback (keyed)"]
        + ["forEach over [Key: Value]"]
      {
        var times: [Double] = []
        var allocations: [Double] = []
        for _ in 0..<rounds {
          let (ns, allocs) = await measure(scenario, size: size, events: events)
          times.append(ns)
          allocations.append(allocs)
        }
        rows.append(
          Row(
            elements: size, scenario: scenario, nsPerEvent: Spread(times),
            allocationsPerEvent: Spread(allocations).median))
      }
    }
    return rows
  }

  /// Builds a system with `size` live elements, sends `events` one-element changes, and
  /// returns nanoseconds and allocations per event.
  private func measure(_ scenario: String, size: Int, events: Int) async -> (Double, Double) {
    let received = Counter()
    let keyed = scenario.contains("keyed") || scenario.contains("Key")
    let withFeedback = scenario.hasPrefix("forEach")
    var initial = Rows()
    if keyed {
      for key in 0..<size { initial.keyed[key] = 0 }
    } else {
      initial.set = Set(0..<size)
    }
    var feedbacks: [Feedback<Rows, Event>] = []
    if withFeedback, keyed {
      feedbacks.append(
        .forEach(state: \.keyed) { _, _, later in
          for await _ in later { received.increment() }
          return nil
        })
    } else if withFeedback {
      feedbacks.append(
        .forEach(state: \.set) { _ in
          // try?: the sleep ends only by cancellation, which is how this effect should end.
          try? await Task.sleep(for: .seconds(86_400))
          return nil
        })
    }
    var system: FeedbackSystem<Rows, Event>? = FeedbackSystem(
      initial: initial, reduce: Self.reduce, feedbacks: feedbacks, on: MainActor.shared,
      monitor: PerformanceMonitor(enabled: false))
    let live = withFeedback ? size : 0
    await settle(system!, live: live, received: received, expected: 0)
    var next = size
    let allocationsBefore = weft_malloc_count()
    let start = wallNanoseconds()
    for index in 0..<events {
      if keyed {
        system!.send(.change(key: index % size, value: index + 1))
      } else {
        system!.send(.swap(out: next - size, in: next))
        next += 1
      }
    }
    await settle(system!, live: live, received: received, expected: withFeedback ? events : 0)
    let elapsed = wallNanoseconds() - start
    let allocations = weft_malloc_count() - allocationsBefore
    system!.cancel()
    await system!.waitUntilIdle()
    system = nil
    return (Double(elapsed) / Double(events), Double(allocations) / Double(events))
  }

  /// Lets the MainActor run effect tasks until `live` effects run and `expected` streamed
  /// values were read (a benchmark may poll; tests never do).
  private func settle(
    _ system: FeedbackSystem<Rows, Event>, live: Int, received: Counter, expected: Int
  ) async {
    await system.waitForEffects(atMost: live)
    while received.value < expected || system.activeEffectCount != live { await Task.yield() }
    await Task.yield()
  }
}

/// A counter shared with effect tasks.
private final class Counter: Sendable {
  private let count = Locked(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

/// Prints the `forEach` rows.
@MainActor
func runFeedbackForEachReport(quick: Bool) async {
  let rounds = quick ? 3 : 5
  let sizes = quick ? [10, 1_000] : [10, 1_000, 100_000]
  print("")
  print(
    "# Feedback.forEach: one event changing one element among n live element effects"
      + " (wall time per event, median of \(rounds); allocations per event, counted"
      + (weft_malloc_counting_enabled() ? ")" : ": counter off in this build)"))
  print(
    pad("n", 8) + "  " + "scenario".padding(28) + pad("ns/event", 20) + pad("allocs/event", 14))
  let rows = await FeedbackForEachBenchmark(sizes: sizes, rounds: rounds).run()
  for row in rows {
    print(
      pad(format(Double(row.elements), digits: 0), 8) + "  " + row.scenario.padding(28)
        + pad(row.nsPerEvent.description, 20) + pad(format(row.allocationsPerEvent), 14))
  }
}
