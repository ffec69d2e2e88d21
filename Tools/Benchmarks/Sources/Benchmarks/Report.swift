import Foundation

/// Prints the fan-out report: per-size table, idle-subscriber cost, memory per subscription.
@MainActor
func runFanOutReport(quick: Bool) async {
  var sizes = quick ? [1, 100, 10_000] : [1, 10, 100, 1_000, 10_000, 100_000]
  // WEFT_BENCH_SIZES=1,10 limits the table to the given sizes (for profiling one size).
  if let only = ProcessInfo.processInfo.environment["WEFT_BENCH_SIZES"] {
    sizes = only.split(separator: ",").compactMap { Int($0) }
  }
  let rounds = quick ? 3 : 7
  await runSmallFanOutReport(rounds: rounds, commits: quick ? 50_000 : 200_000)
  print(
    "# Weft fan-out benchmark (release build, wall time, median of \(rounds) interleaved rounds)")
  print(
    "# reproduce: swift run -c release --package-path Tools/Benchmarks weft-bench fanout"
      + (quick ? " --quick" : ""))
  print("")
  let fanOut = FanOutBenchmark(
    sizes: sizes, rounds: rounds, deliveriesPerRound: quick ? 200_000 : 1_000_000)
  let rows = await fanOut.run { line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
  print(
    pad("N", 7) + "  " + "scenario".padding(38) + pad("ns/commit", 16) + pad("ns/delivery", 16)
      + pad("× floor", 14))
  for row in rows {
    print(
      pad(format(Double(row.subscribers), digits: 0), 7) + "  " + row.scenario.padding(38)
        + pad(row.nsPerCommit.description, 16) + pad(row.nsPerDelivery.description, 16)
        + pad(format(row.ratioToFloor.median, digits: 2) + "×", 14))
  }
  print("")
  let idle = IdleSubscribersBenchmark(
    total: 100_000, commits: quick ? 20_000 : 100_000, rounds: rounds
  ).run()
  print("Idle subscribers: a commit changing 1 field watched by 1 of 100,000 subscribers")
  print("  (\(idle.selectors) distinct selectors): \(idle.nsPerCommitWithIdle) ns/commit;")
  print("  the same commit with that subscriber alone: \(idle.nsPerCommitAlone) ns/commit")
  print("")
  let memory = MemoryBenchmark().run()
  print("Heap bytes per subscription (100,000 subscriptions, shared sink):")
  print("  closure in an array (floor): \(format(memory.closureArray))")
  print("  WeftCore synchronous:        \(format(memory.synchronous))")
  print("  WeftCore MainActor:          \(format(memory.mainActor))")
}

/// Prints the small-N table: ns per commit at N = 1 and 10.
@MainActor
func runSmallFanOutReport(rounds: Int, commits: Int) async {
  let rows = await SmallFanOutBenchmark(commits: commits, rounds: rounds).run()
  print("Small N: cost of one commit")
  print(
    "  (median of \(rounds) interleaved rounds of \(format(Double(commits), digits: 0)) commits)")
  print(
    pad("N", 7) + "  " + "scenario".padding(38) + pad("ns/commit", 16) + pad("× floor", 10))
  for row in rows {
    print(
      pad(format(Double(row.subscribers), digits: 0), 7) + "  " + row.scenario.padding(38)
        + pad(row.nsPerCommit.description, 16)
        + pad(format(row.ratioToFloor.median, digits: 2) + "×", 10))
  }
  print("")
}

extension String {
  func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
