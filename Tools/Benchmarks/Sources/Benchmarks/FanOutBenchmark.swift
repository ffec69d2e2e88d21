import WeftCore

/// Runs every fan-out scenario at each subscriber count, interleaving the scenarios in each
/// round so that all ratios compare figures measured side by side.
@MainActor
struct FanOutBenchmark {
  var sizes: [Int]
  var rounds: Int
  /// Deliveries per scenario per round (commits = this / N, at least 2).
  var deliveriesPerRound: Int

  struct Row {
    var scenario: String
    var subscribers: Int
    var nsPerCommit: Spread
    var nsPerDelivery: Spread
    var ratioToFloor: Spread
  }

  func run(log: (String) -> Void) async -> [Row] {
    var rows: [Row] = []
    for size in sizes {
      let commits = max(2, deliveriesPerRound / size)
      // The slow peers get fewer commits at large sizes so a run stays within minutes.
      let slowCommits = max(2, min(commits, 2_000_000 / max(size, 1) / 20))
      var scenarios: [(any FanOutScenario, Int)] = [
        (ClosureLoop(subscribers: size), commits),
        (WeftSynchronous(subscribers: size), commits),
        (WeftMainActor(subscribers: size), commits),
        (NotificationCenterPeer(subscribers: size), slowCommits),
        (ObservationTracking(subscribers: size), slowCommits),
      ]
      scenarios.append((AsyncStreamPeer(subscribers: size), slowCommits))
      var perCommit = Array(repeating: [Double](), count: scenarios.count)
      var ratios = Array(repeating: [Double](), count: scenarios.count)
      var next = 1
      for _ in 0..<rounds {
        var floor = 0.0
        for (index, (scenario, count)) in scenarios.enumerated() {
          let start = wallNanoseconds()
          await scenario.run(commits: count, from: next)
          let elapsed = Double(wallNanoseconds() - start) / Double(count)
          next += count
          let expected = next - 1
          if let stale = scenario.sinks.firstIndex(where: {
            $0.last.load(ordering: .relaxed) != expected
          }) {
            fatalError("\(type(of: scenario).name): subscriber \(stale) missed a delivery")
          }
          perCommit[index].append(elapsed)
          if index == 0 { floor = elapsed }
          ratios[index].append(elapsed / floor)
        }
      }
      for (index, (scenario, _)) in scenarios.enumerated() {
        let name = type(of: scenario).name
        let deliveries = Double(max(scenario.deliveriesPerCommit, 1))
        rows.append(
          Row(
            scenario: name, subscribers: size, nsPerCommit: Spread(perCommit[index]),
            nsPerDelivery: Spread(perCommit[index].map { $0 / deliveries }),
            ratioToFloor: Spread(ratios[index])))
      }
      log("  N = \(size) done")
    }
    return rows
  }
}

/// A commit that changes one field watched by 1 of `total` subscribers spread over 64
/// selectors, against the same commit with that one subscriber alone.
@MainActor
struct IdleSubscribersBenchmark {
  struct WideState: Sendable, Equatable {
    var fields = SIMD64<Int32>()
  }

  var total = 100_000
  var commits = 100_000
  var rounds = 7

  struct Result {
    var nsPerCommitWithIdle: Spread
    var nsPerCommitAlone: Spread
    var selectors: Int
  }

  func run() -> Result {
    let crowded = StateCell(WideState(), name: "bench.idle")
    let alone = StateCell(WideState(), name: "bench.alone")
    let sink = Sink()
    var keep: [StateSubscription] = []
    func selector(_ index: Int) -> StateSelector<WideState, Int32> {
      StateSelector(id: index) { $0.fields[index] }
    }
    keep.append(crowded.observeSynchronously(selector(0)) { sink.take(Int($0.value)) })
    keep.append(alone.observeSynchronously(selector(0)) { sink.take(Int($0.value)) })
    for index in 1..<total {
      keep.append(
        crowded.observeSynchronously(selector(1 + index % 63)) { sink.take(Int($0.value)) })
    }
    var withIdle: [Double] = []
    var without: [Double] = []
    for _ in 0..<rounds {
      for (cell, isCrowded) in [(crowded, true), (alone, false)] {
        let start = wallNanoseconds()
        for _ in 0..<commits { cell.update { $0.fields[0] &+= 1 } }
        let perCommit = Double(wallNanoseconds() - start) / Double(commits)
        if isCrowded { withIdle.append(perCommit) } else { without.append(perCommit) }
      }
    }
    blackHole(keep)
    return Result(
      nsPerCommitWithIdle: Spread(withIdle), nsPerCommitAlone: Spread(without),
      selectors: crowded.selectorCount)
  }
}

/// Heap bytes per subscription, measured over `count` subscriptions sharing one sink (so
/// only the engine's own memory is counted).
@MainActor
struct MemoryBenchmark {
  var count = 100_000

  struct Result {
    var closureArray: Double
    var synchronous: Double
    var mainActor: Double
  }

  func run() -> Result {
    let sink = Sink()
    func measure(_ body: () -> Any) -> Double {
      let before = heapBytesInUse()
      let kept = body()
      let after = heapBytesInUse()
      blackHole(kept)
      return Double(after - before) / Double(count)
    }
    let closures = measure {
      var array: [(Int) -> Void] = []
      array.reserveCapacity(count)
      for _ in 0..<count { array.append { sink.take($0) } }
      return array
    }
    let cell = StateCell(BenchState(), name: "bench.memory")
    let sync = measure {
      var tokens: [StateSubscription] = []
      tokens.reserveCapacity(count)
      for _ in 0..<count {
        tokens.append(cell.observeSynchronously(\.value) { sink.take($0.value) })
      }
      return tokens
    }
    let mainCell = StateCell(BenchState(), name: "bench.memory.main")
    let main = measure {
      var tokens: [StateSubscription] = []
      tokens.reserveCapacity(count)
      for _ in 0..<count {
        tokens.append(mainCell.observeOnMainActor(\.value) { sink.take($0.value) })
      }
      return tokens
    }
    return Result(closureArray: closures, synchronous: sync, mainActor: main)
  }
}

/// The per-commit cost at small N (1 and 10 subscribers): wall time of each WeftCore path.
/// Allocations per commit are counted outside the process (`perf stat` on a uprobe on libc's
/// `malloc`, see docs/performance.md), so that no benchmark pays for a counter.
@MainActor
struct SmallFanOutBenchmark {
  var sizes = [1, 10]
  var commits = 200_000
  var rounds = 7

  struct Row {
    var scenario: String
    var subscribers: Int
    var nsPerCommit: Spread
    var ratioToFloor: Spread
  }

  func run() async -> [Row] {
    var rows: [Row] = []
    for size in sizes {
      let scenarios: [any FanOutScenario] = [
        ClosureLoop(subscribers: size), WeftSynchronous(subscribers: size),
        WeftMainActor(subscribers: size), WeftMainActorJob(subscribers: size),
        MainActorTaskChain(subscribers: size), MainActorTaskYield(subscribers: size),
      ]
      var perCommit = Array(repeating: [Double](), count: scenarios.count)
      var ratios = Array(repeating: [Double](), count: scenarios.count)
      var next = 1
      // One warm-up round: groups, batches and the drain queue reach their steady capacity.
      for scenario in scenarios {
        await scenario.run(commits: 1_000, from: next)
        next += 1_000
      }
      for _ in 0..<rounds {
        var floor = 0.0
        for (index, scenario) in scenarios.enumerated() {
          let start = wallNanoseconds()
          await scenario.run(commits: commits, from: next)
          let elapsed = Double(wallNanoseconds() - start) / Double(commits)
          next += commits
          if let stale = scenario.sinks.firstIndex(where: {
            $0.last.load(ordering: .relaxed) != next - 1
          }) {
            fatalError("\(type(of: scenario).name): subscriber \(stale) missed a delivery")
          }
          perCommit[index].append(elapsed)
          if index == 0 { floor = elapsed }
          ratios[index].append(elapsed / floor)
        }
      }
      for (index, scenario) in scenarios.enumerated() {
        rows.append(
          Row(
            scenario: type(of: scenario).name, subscribers: size,
            nsPerCommit: Spread(perCommit[index]), ratioToFloor: Spread(ratios[index])))
        // The commit and its job without the yield: job included − yield alone, per round.
        if scenario is MainActorTaskChain,
          let job = scenarios.firstIndex(where: {
            $0 is WeftMainActorJob
          })
        {
          let difference = zip(perCommit[job], perCommit[index]).map { $0 - $1 }
          let floors = perCommit[0]
          rows.append(
            Row(
              scenario: "= MainActor commit + its job", subscribers: size,
              nsPerCommit: Spread(difference),
              ratioToFloor: Spread(zip(difference, floors).map { $0 / $1 })))
        }
      }
    }
    return rows
  }
}
