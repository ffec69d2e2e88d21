import Foundation
import WeftCore

// `weft-bench latency`: commit → MainActor render, the pattern of a UI action. The MainActor
// awaits an actor, which commits a new value; the value must reach a MainActor callback.
// Measured for WeftCore (a `Client`'s commit and an `observeOnMainActor` subscriber) and for
// the floor any Swift code pays for the same shape (the actor enqueues a `@MainActor` task
// itself), each with the other core idle and with it busy (a spinning thread in this
// process), in interleaved rounds. It shows how much of the simulator's commit→render latency
// is the platform waking the MainActor's parked thread rather than Weft.

/// The samples, on the MainActor. The commit's time stamp travels with the commit (the
/// committed state, or the task's closure), so nothing is shared across the hop.
@MainActor
private final class HopSamples {
  var samples: [Double] = []

  func record(since stamp: UInt64) {
    samples.append(Double(DispatchTime.now().uptimeNanoseconds &- stamp) / 1_000)
  }
}

private actor PlainCounter {
  var value = 0
  let samples: HopSamples

  init(_ samples: HopSamples) { self.samples = samples }

  func commit() {
    value += 1
    let stamp = DispatchTime.now().uptimeNanoseconds
    let samples = samples
    Task { @MainActor in samples.record(since: stamp) }
  }
}

/// The committed state: the commit's time stamp is its value (a new one every commit).
private struct Counter: Sendable { var stamp: UInt64 = 0 }

private actor WeftCounter: Client {
  nonisolated let cell = StateCell(Counter(), name: "latency.counter")

  func commit() {
    update { $0.stamp = DispatchTime.now().uptimeNanoseconds }
  }
}

/// A thread that spins until stopped: keeps the other core busy, as the rest of an app would.
private final class Spinner: Sendable {
  private let stopped = Locked(false)

  func start() {
    Thread {
      var sink = 0
      while !self.stopped.withLock({ $0 }) {
        for index in 0..<10_000 { sink &+= index }
      }
      if sink == 42 { print("") }
    }.start()
  }

  func stop() { stopped.withLock { $0 = true } }
}

@MainActor
private func measure(weft: Bool, commits: Int, gap: Duration) async -> [Double] {
  let samples = HopSamples()
  if weft {
    let client = WeftCounter()
    let token = client.observeOnMainActor(\.stamp) { samples.record(since: $0.value) }
    for _ in 0..<commits {
      try? await Task.sleep(for: gap)  // try?: never cancelled here.
      await client.commit()
    }
    try? await Task.sleep(for: .milliseconds(20))  // try?: as above; the last job runs.
    token.cancel()
  } else {
    let client = PlainCounter(samples)
    for _ in 0..<commits {
      try? await Task.sleep(for: gap)  // try?: never cancelled here.
      await client.commit()
    }
    try? await Task.sleep(for: .milliseconds(20))  // try?: as above; the last task runs.
  }
  return samples.samples
}

private func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
  sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// Runs the report: `rounds` interleaved rounds of `commits` commits, 2 ms apart.
@MainActor
func runHopLatencyReport(quick: Bool) async {
  let rounds = quick ? 2 : 5
  let commits = quick ? 200 : 400
  print(
    "# commit → MainActor render: an actor commits while the MainActor awaits it, 2 ms apart "
      + "(the MainActor's thread parks between); \(rounds) interleaved rounds × \(commits) "
      + "commits; p50 / p95 / p99 of each round, µs")
  print("# reproduce: swift run -c release --package-path Tools/Benchmarks weft-bench latency")
  var table: [String: [String]] = [:]
  let order = [
    "Weft: Client commit → observeOnMainActor, other core idle",
    "plain Swift: actor → Task { @MainActor }, other core idle",
    "Weft: Client commit → observeOnMainActor, other core busy",
    "plain Swift: actor → Task { @MainActor }, other core busy",
  ]
  for _ in 0..<rounds {
    for (index, name) in order.enumerated() {
      let busy = index >= 2
      let spinner = Spinner()
      if busy { spinner.start() }
      let sorted = await measure(weft: index % 2 == 0, commits: commits, gap: .milliseconds(2))
        .sorted()
      spinner.stop()
      table[name, default: []].append(
        String(
          format: "%.1f / %.1f / %.1f", percentile(sorted, 0.5), percentile(sorted, 0.95),
          percentile(sorted, 0.99)))
    }
  }
  for name in order {
    print("\(name): " + (table[name] ?? []).joined(separator: " · "))
  }
}
