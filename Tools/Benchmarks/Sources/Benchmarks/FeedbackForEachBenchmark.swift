import Foundation
import Synchronization
import WeftCore
import WeftFeedback

// `weft-bench foreach` (issue 21, item 3): the cost of one event that changes one element of a
// collection while n element effects of `Feedback.forEach` are live, at n = 10, 1,000 and
// 100,000, against the same system without the feedback, and the allocations per event.
//
// Set rows: the event swaps the oldest element for a new one (one effect cancelled, one
// launched). Keyed rows: the event changes one key's value (no restart: the value is yielded
// to the key's running effect, which reads it). Baseline: the same state, reducer and events
// in a system with no feedback (the reducer's copy-on-write copy of the collection, the
// commit) — what an app pays for the event without forEach.
//
// Events are sent in rounds of at most n; after each round the benchmark waits until every
// launched effect has begun and every cancelled one has ended (and, keyed, every value was
// read), so every event removes an element whose effect is really running, never one that
// was cancelled before it began. "host" is the CPU time of the `send` calls alone (reduce,
// commit, the forEach pass, launch and cancel bookkeeping, on the MainActor's thread; CPU
// time so that a loaded machine does not inflate it); "with effects" is wall time: the
// sends plus the effect tasks' work the events caused and the wait for it, per event.
//
// Why the first version hung (bb3f437 took it out): its wait after the Set rows' events
// waited for `events` values read by the effects, but only the keyed effects read values,
// so the Set row polled forever. The wait below is per shape.
//
// Allocations are counted outside the process, so no benchmark pays for a counter: when the
// `probe_libc:malloc` uprobe exists (`perf probe -x <libc> malloc`, as root), `foreach` runs
// `weft-bench profile-foreach` under `perf stat` once per row, and the profile switches
// counting on for its events only (perf's control FIFO). The count includes the effect
// tasks' allocations and the benchmark's own waits (one continuation per round of n events).

/// The benchmark's state: a set of visible rows, or a keyed map of row values.
struct ForEachRows: Sendable, Equatable {
  var set: Set<Int> = []
  var keyed: [Int: Int] = [:]
}

/// One element changed: swapped out of the set for a new one, or a key given a new value.
enum ForEachEvent: Sendable {
  case swap(out: Int, in: Int)
  case change(key: Int, value: Int)
}

/// Which collection, and whether the system has the forEach feedback.
struct ForEachScenario: Hashable, Sendable {
  enum Shape: String, Sendable { case set, keyed }
  var shape: Shape
  var withFeedback: Bool

  static let all = [
    ForEachScenario(shape: .set, withFeedback: false),
    ForEachScenario(shape: .set, withFeedback: true),
    ForEachScenario(shape: .keyed, withFeedback: false),
    ForEachScenario(shape: .keyed, withFeedback: true),
  ]

  var name: String {
    switch (shape, withFeedback) {
    case (.set, false): "Set, no feedback (baseline)"
    case (.set, true): "Set, forEach"
    case (.keyed, false): "[Key: Value], no feedback (baseline)"
    case (.keyed, true): "[Key: Value], forEach"
    }
  }

  /// `set,1` / `keyed,0`: how `profile-foreach` is told the scenario.
  var code: String { "\(shape.rawValue),\(withFeedback ? 1 : 0)" }
}

/// What the element effects report, read by the benchmark's wait.
private final class EffectProbe: Sendable {
  let began = Atomic<Int>(0)
  let received = Atomic<Int>(0)
}

/// One system with n live elements, driven by one-element events.
@MainActor
final class ForEachSystem {
  let scenario: ForEachScenario
  let size: Int
  private let probe = EffectProbe()
  private var system: FeedbackSystem<ForEachRows, ForEachEvent>?
  /// Events sent so far.
  private(set) var sent = 0

  nonisolated static func reduce(_ state: inout ForEachRows, _ event: ForEachEvent) {
    switch event {
    case .swap(let out, let new):
      state.set.remove(out)
      state.set.insert(new)
    case .change(let key, let value):
      state.keyed[key] = value
    }
  }

  /// Builds the system and waits until its n element effects have begun.
  init(_ scenario: ForEachScenario, size: Int) async {
    self.scenario = scenario
    self.size = size
    var initial = ForEachRows()
    switch scenario.shape {
    case .set: initial.set = Set(0..<size)
    case .keyed: initial.keyed = Dictionary(uniqueKeysWithValues: (0..<size).map { ($0, 0) })
    }
    let probe = probe
    var feedbacks: [Feedback<ForEachRows, ForEachEvent>] = []
    if scenario.withFeedback {
      switch scenario.shape {
      case .set:
        feedbacks.append(
          .forEach(state: \.set) { _ in
            probe.began.add(1, ordering: .relaxed)
            // try?: the sleep ends only by cancellation, which is how this effect should end.
            try? await Task.sleep(for: .seconds(86_400))
            return nil
          })
      case .keyed:
        feedbacks.append(
          .forEach(state: \.keyed) { _, _, later in
            probe.began.add(1, ordering: .relaxed)
            for await _ in later { probe.received.add(1, ordering: .relaxed) }
            return nil
          })
      }
    }
    system = FeedbackSystem(
      initial: initial, reduce: Self.reduce, feedbacks: feedbacks, on: MainActor.shared,
      monitor: PerformanceMonitor(enabled: false))
    await settle()
  }

  /// Sends `count` one-element events (at most n, so every element swapped out has an
  /// effect that began); returns the nanoseconds the `send` calls took.
  func send(_ count: Int) -> UInt64 {
    guard let system else { return 0 }
    let start = threadCPUNanoseconds()
    for _ in 0..<count {
      switch scenario.shape {
      case .set: system.send(.swap(out: sent, in: sent + size))
      case .keyed: system.send(.change(key: sent % size, value: sent + 1))
      }
      sent += 1
    }
    return threadCPUNanoseconds() - start
  }

  /// Waits until the effects caught up with the events sent: every cancelled effect ended,
  /// every launched one began, and (keyed) every value sent was read. Without the feedback
  /// there is nothing to wait for.
  func settle() async {
    guard scenario.withFeedback, let system else { return }
    await system.waitForEffects(atMost: size)
    let launched = scenario.shape == .set ? size + sent : size
    let values = scenario.shape == .keyed ? sent : 0
    // A benchmark may poll (tests never do): the effects run on the cooperative pool.
    while probe.began.load(ordering: .relaxed) < launched
      || probe.received.load(ordering: .relaxed) < values
      || system.activeEffectCount != size
    {
      await Task.yield()
    }
  }

  /// Cancels the system and waits for its effect tasks to end.
  func tearDown() async {
    system?.cancel()
    await system?.waitUntilIdle()
    system = nil
  }
}

/// The `foreach` rows and how they were measured.
@MainActor
struct FeedbackForEachBenchmark {
  struct Row {
    var size: Int
    var scenario: ForEachScenario
    /// CPU time of the `send` calls only.
    var hostNsPerEvent: Spread
    /// The `send` calls plus the effects' work and the wait for it.
    var totalNsPerEvent: Spread
    /// Counted with perf, or nil when the uprobe is missing.
    var allocationsPerEvent: Double?
  }

  var sizes: [Int]
  var rounds: Int

  /// Events per measurement at `size`: fewer for large n, whose events each cost O(n).
  nonisolated static func events(at size: Int) -> Int { max(50, min(10_000, 500_000 / size)) }

  /// Runs `events` events through `system`, in rounds of at most n, each round followed
  /// by a wait for the effects; returns (host ns, total ns).
  static func drive(_ system: ForEachSystem, events: Int) async -> (UInt64, UInt64) {
    let start = wallNanoseconds()
    var host: UInt64 = 0
    var left = events
    while left > 0 {
      let round = min(left, system.size)
      host += system.send(round)
      await system.settle()
      left -= round
    }
    return (host, wallNanoseconds() - start)
  }

  func run(counting: AllocationCounter?) async -> [Row] {
    var rows: [Row] = []
    for size in sizes {
      let events = Self.events(at: size)
      var host: [ForEachScenario: [Double]] = [:]
      var total: [ForEachScenario: [Double]] = [:]
      // Interleaved: each round measures every scenario once, on a fresh system.
      for _ in 0..<rounds {
        for scenario in ForEachScenario.all {
          let system = await ForEachSystem(scenario, size: size)
          let (hostNs, totalNs) = await Self.drive(system, events: events)
          await system.tearDown()
          host[scenario, default: []].append(Double(hostNs) / Double(events))
          total[scenario, default: []].append(Double(totalNs) / Double(events))
        }
      }
      for scenario in ForEachScenario.all {
        rows.append(
          Row(
            size: size, scenario: scenario, hostNsPerEvent: Spread(host[scenario]!),
            totalNsPerEvent: Spread(total[scenario]!),
            allocationsPerEvent: counting?.allocationsPerEvent(scenario, size: size)))
      }
    }
    return rows
  }
}

/// Counts `malloc` calls per event with `perf stat` on the `probe_libc:malloc` uprobe: runs
/// `weft-bench profile-foreach` under perf with counting off, and the profile turns it on
/// for its events only (perf's control FIFO), so start-up, building the n elements and
/// tearing down are not counted.
struct AllocationCounter {
  let executable: String

  /// A counter if `perf stat -e probe_libc:malloc` works here, else nil.
  static func available(executable: String) -> AllocationCounter? {
    let counter = AllocationCounter(executable: executable)
    return counter.mallocs(of: ["/bin/true"], environment: [:], controlled: false) != nil
      ? counter : nil
  }

  /// Allocations per event in one run of `profile-foreach`.
  func allocationsPerEvent(_ scenario: ForEachScenario, size: Int) -> Double? {
    let events = FeedbackForEachBenchmark.events(at: size)
    let count = mallocs(
      of: [executable, "profile-foreach"],
      environment: ["WEFT_FOREACH": "\(scenario.code),\(size),\(events)"], controlled: true)
    return count.map { Double($0) / Double(events) }
  }

  /// The `malloc` calls `command` made (while it had counting on, if `controlled`), or nil
  /// if perf could not count them.
  private func mallocs(
    of command: [String], environment: [String: String], controlled: Bool
  ) -> UInt64? {
    var arguments = ["perf", "stat", "-x", ",", "-e", "probe_libc:malloc"]
    var environment = environment
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "weft-bench-perf-\(getpid())")
    if controlled {
      // try?: a folder left by an earlier run is removed; if there is none, nothing to do.
      try? FileManager.default.removeItem(at: folder)
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      } catch {
        return nil
      }
      let control = folder.appendingPathComponent("control").path
      let ack = folder.appendingPathComponent("ack").path
      guard mkfifo(control, 0o600) == 0, mkfifo(ack, 0o600) == 0 else { return nil }
      arguments += ["-D", "-1", "--control", "fifo:\(control),\(ack)"]
      environment["WEFT_PERF_CONTROL"] = control
      environment["WEFT_PERF_ACK"] = ack
    }
    defer {
      // try?: the FIFOs are scratch; a failure to remove them leaves two empty files in tmp.
      if controlled { try? FileManager.default.removeItem(at: folder) }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments + ["--"] + command
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return nil
    }
    let output = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    // perf's CSV line: "<count>,<unit>,probe_libc:malloc,…"
    for line in String(decoding: output, as: UTF8.self).split(separator: "\n")
    where line.contains("probe_libc:malloc") {
      return line.split(separator: ",", omittingEmptySubsequences: false).first.flatMap {
        UInt64($0)
      }
    }
    return nil
  }
}

/// perf's control FIFO, when `weft-bench profile-foreach` runs under `perf stat --control`:
/// `enable` and `disable` turn counting on and off, each acknowledged by perf.
struct PerfControl {
  private let control: Int32
  private let ack: Int32

  /// The FIFOs named by WEFT_PERF_CONTROL and WEFT_PERF_ACK, or nil when not under perf.
  init?() {
    let environment = ProcessInfo.processInfo.environment
    guard let control = environment["WEFT_PERF_CONTROL"], let ack = environment["WEFT_PERF_ACK"]
    else { return nil }
    self.control = open(control, O_WRONLY)
    self.ack = open(ack, O_RDONLY)
    guard self.control >= 0, self.ack >= 0 else { return nil }
  }

  /// Sends `command` and waits for perf's acknowledgement.
  func send(_ command: String) {
    let line = Array((command + "\n").utf8)
    _ = line.withUnsafeBytes { write(control, $0.baseAddress, $0.count) }
    var reply = [UInt8](repeating: 0, count: 16)
    _ = reply.withUnsafeMutableBytes { read(ack, $0.baseAddress, $0.count) }
  }
}

/// `weft-bench profile-foreach`: one scenario, for `perf stat` (and `perf record`). Reads
/// `WEFT_FOREACH=<set|keyed>,<0|1>,<n>,<events>` (default `set,1,1000,2000`). Under
/// `perf stat --control` (WEFT_PERF_CONTROL, WEFT_PERF_ACK), perf counts the events only.
@MainActor
func runForEachProfile() async {
  let spec = ProcessInfo.processInfo.environment["WEFT_FOREACH"] ?? "set,1,1000,2000"
  let parts = spec.split(separator: ",").map(String.init)
  guard parts.count == 4, let shape = ForEachScenario.Shape(rawValue: parts[0]),
    let size = Int(parts[2]), let events = Int(parts[3]), size > 0, events >= 0
  else {
    FileHandle.standardError.write(
      Data("error: WEFT_FOREACH must be <set|keyed>,<0|1>,<n>,<events>, got '\(spec)'\n".utf8))
    exit(2)
  }
  let scenario = ForEachScenario(shape: shape, withFeedback: parts[1] == "1")
  let system = await ForEachSystem(scenario, size: size)
  let perf = PerfControl()
  perf?.send("enable")
  _ = await FeedbackForEachBenchmark.drive(system, events: events)
  perf?.send("disable")
  await system.tearDown()
}

/// Prints the `foreach` table.
@MainActor
func runFeedbackForEachReport(quick: Bool) async {
  let rounds = quick ? 3 : 5
  var sizes = quick ? [10, 1_000] : [10, 1_000, 100_000]
  if let only = ProcessInfo.processInfo.environment["WEFT_BENCH_SIZES"] {
    sizes = only.split(separator: ",").compactMap { Int($0) }
  }
  let counter = AllocationCounter.available(executable: CommandLine.arguments[0])
  print("# Feedback.forEach: one event changing one element among n live element effects")
  print(
    "# (release build; host: CPU time of send per event; with effects: wall time; median of \(rounds) interleaved rounds; "
      + "reproduce: swift run -c release --package-path Tools/Benchmarks weft-bench foreach"
      + (quick ? " --quick)" : ")"))
  print(
    counter == nil
      ? "# allocations not counted: needs perf and the malloc uprobe "
        + "(as root: perf probe -x /lib/x86_64-linux-gnu/libc.so.6 malloc)"
      : "# allocations: malloc calls per event, counted by perf stat on the probe_libc:malloc uprobe"
  )
  print("")
  let rows = await FeedbackForEachBenchmark(sizes: sizes, rounds: rounds).run(counting: counter)
  print(
    pad("n", 8) + "  " + "scenario".padding(37) + pad("host ns/event", 20)
      + pad("× baseline", 11) + pad("ns/element", 11) + pad("with effects", 20)
      + pad("allocs/event", 13))
  var baseline: FeedbackForEachBenchmark.Row?
  for row in rows {
    if !row.scenario.withFeedback { baseline = row }
    let base = baseline?.hostNsPerEvent.median ?? .nan
    let ratio =
      row.scenario.withFeedback ? format(row.hostNsPerEvent.median / base, digits: 2) + "×" : ""
    // The forEach pass's share of an event, per live element.
    let perElement =
      row.scenario.withFeedback
      ? format((row.hostNsPerEvent.median - base) / Double(row.size), digits: 2) : ""
    print(
      pad(format(Double(row.size), digits: 0), 8) + "  " + row.scenario.name.padding(37)
        + pad(row.hostNsPerEvent.description, 20) + pad(ratio, 11) + pad(perElement, 11)
        + pad(row.totalNsPerEvent.description, 20)
        + pad(row.allocationsPerEvent.map { format($0, digits: 2) } ?? "–", 13))
  }
}
