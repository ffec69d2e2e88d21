// weft-runtime-probe: scenarios run under WeftRuntime's DeterministicRuntime, each printing a
// transcript that WeftRuntimeTests checks. The runtime is process-wide and must be installed
// before anything asynchronous runs, which a test process cannot do: hence a child process.
//   weft-runtime-probe SCENARIO [SCHEDULE-SEED]
import Foundation
import Synchronization
import WeftPersistence
import WeftRuntime

let arguments = Array(CommandLine.arguments.dropFirst())
let scenario = arguments.first ?? ""
// `process`: fix the hashing seed and the address layout (runs the probe again once), then
// print them and the iteration order of a set of objects keyed by address.
if scenario == "process" {
  let fixed = DeterministicProcess.ensure()
  final class Token {}
  let tokens = (0..<64).map { _ in Token() }
  let positions = Dictionary(
    uniqueKeysWithValues: tokens.enumerated().map { (ObjectIdentifier($0.element), $0.offset) })
  let order = Set(tokens.map(ObjectIdentifier.init)).map { positions[$0]! }
  print("fixed \(fixed) hashing \(DeterministicProcess.hashesDeterministically)")
  print("order \(order.map(String.init).joined(separator: " "))")
  exit(0)
}
let scheduleSeed = arguments.count > 1 ? UInt64(arguments[1]) : nil
guard let runtime = DeterministicRuntime.install(scheduleSeed: scheduleSeed, stallSeconds: 1)
else {
  print("unavailable")
  exit(3)
}
let mainThread = pthread_self()
/// Calls recorded off the runtime's thread.
let offThreadCalls = Mutex(0)

/// Records what ran where: every event notes whether it ran on the runtime's thread.
@MainActor final class Transcript {
  static let shared = Transcript()
  var lines: [String] = []
  var offThread = 0
  /// Counts a call made on a thread other than the runtime's (a SQLite call, a job).
  nonisolated static func noteThread() {
    if pthread_equal(pthread_self(), mainThread) == 0 { offThreadCalls.withLock { $0 += 1 } }
  }

  nonisolated static func note(_ line: String) {
    let onThread = pthread_equal(pthread_self(), mainThread) != 0
    let (seconds, attoseconds) = DeterministicRuntime.current!.now.components
    let now = "\(seconds * 1_000 + attoseconds / 1_000_000_000_000_000) ms"
    Task { @MainActor in
      if !onThread { shared.offThread += 1 }
      shared.lines.append("\(now) \(line)")
    }
  }
}

actor Counter {
  var value = 0
  func read() -> Int { value }
  func write(_ newValue: Int) { value = newValue }
  func bump() -> Int {
    value += 1
    return value
  }
}

actor Audit {
  var entries = 0
  func record() { entries += 1 }
}

@MainActor func orderScenario() async {
  let counter = Counter()
  Transcript.note("hop \(await counter.bump())")
  try? await Task.sleep(for: .milliseconds(300))
  Transcript.note("slept 300 ms on ContinuousClock")
  try? await SuspendingClock().sleep(for: .seconds(2))
  Transcript.note("slept 2 s on SuspendingClock")
  // A sub-millisecond deadline on a real clock is a guess (VirtualDelay: 1 ms, or at once when
  // a slow machine reaches the enqueue after the deadline); RuntimeClock's is exact.
  try? await RuntimeClock().sleep(for: .microseconds(5))
  Transcript.note("slept 5 µs on RuntimeClock")
  let detached = Task.detached { await counter.bump() }
  Transcript.note("detached \(await detached.value)")
  await withTaskGroup(of: Int.self) { group in
    for _ in 0..<3 { group.addTask { await counter.bump() } }
    for await value in group { Transcript.note("group \(value)") }
  }
  let fromMain = await MainActor.run { "main" }
  Transcript.note("MainActor.run \(fromMain)")
  try? await Task.sleep(for: .seconds(900))
  Transcript.note("slept 15 minutes")
}

@MainActor func settleScenario() async {
  Task {
    try? await Task.sleep(for: .milliseconds(300))
    Transcript.note("debounce fired")
  }
  Task {
    try? await Task.sleep(for: .milliseconds(300))
    Transcript.note("second timer at the same instant fired")
  }
  Task {
    let counter = Counter()
    for _ in 0..<3 { _ = await counter.bump() }
    Transcript.note("background hops done")
  }
  await runtime.settle()
  Transcript.note("settled; timers pending: \(runtime.pendingTimers)")
  await runtime.advance(by: .milliseconds(100))
  Transcript.note("advanced 100 ms; timers pending: \(runtime.pendingTimers.count)")
  await runtime.advance(by: .milliseconds(250))
  Transcript.note("advanced 250 ms more; timers pending: \(runtime.pendingTimers.count)")
}

/// A planted race: read, await another actor, write back. A bump that runs in between is lost.
@MainActor func raceScenario() async {
  let counter = Counter()
  let audit = Audit()
  let slow = Task {
    let value = await counter.read()
    await audit.record()
    await counter.write(value + 1)
  }
  let fast = Task.detached {
    await Task.yield()  // a little work first: in arrival order, the slow task is done by now
    await Task.yield()
    _ = await counter.bump()
  }
  await slow.value
  await fast.value
  Transcript.note("final \(await counter.read())")
}

/// 1,000 writes into a table capped at 500 rows, behind an observed count: every SQLite call
/// (each write's and each observation pass's) records the thread it ran on, and how many
/// re-fetches the observation made is a function of the schedule alone.
@MainActor func persistenceScenario() async {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("weft-runtime-probe-\(getpid())")
  // try?: an existing folder is fine; a failure shows as the open's error below.
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }  // best effort: a temporary folder
  do {
    let database = try await Database.open(
      at: folder.appendingPathComponent("probe.sqlite").path,
      migrations: [
        Migration(1, "create item") { tx in
          try tx.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        }
      ])
    let counts = Task {
      var seen = 0
      var last = -1
      let observed = database.observe(tables: ["item"], isDuplicate: ==) { db -> Int in
        Transcript.noteThread()
        guard case .integer(let count) = try db.scalar("SELECT COUNT(*) FROM item") else {
          return -1
        }
        return Int(count)
      }
      for try await count in observed {
        seen += 1
        last = count
        if count == 500, seen > 1 { break }
      }
      return (seen, last)
    }
    await runtime.settle()
    for index in 0..<1_000 {
      try await database.write { tx in
        Transcript.noteThread()
        try tx.execute("INSERT INTO item (title) VALUES ('item \(index)')")
        try tx.execute(
          "DELETE FROM item WHERE id NOT IN (SELECT id FROM item ORDER BY id DESC LIMIT 500)")
      }
    }
    let (seen, last) = try await counts.value
    // A row stamped by the app's clock and by SQLite's, with an id from UUID(): with the
    // process's clocks and draws the runtime's, the same row on every run.
    let stamp = try await database.write { tx in
      try tx.execute(
        "INSERT INTO item (title) VALUES ('\(Date().timeIntervalSince1970) \(UUID()) ' || "
          + "strftime('%Y-%m-%dT%H:%M:%f', 'now'))")
      return try tx.scalar("SELECT title FROM item ORDER BY id DESC LIMIT 1")
    }
    Transcript.note("stamped \(stamp.map { "\($0)" } ?? "nothing")")
    let statistics = database.statistics
    Transcript.note("observed \(seen) values, last \(last)")
    Transcript.note("statements \(statistics)")
    await database.close()
  } catch {
    Transcript.note("failed: \(error)")
  }
}

/// A parked continuation (kept, never resumed) and its task's name, for the stall diagnostic.
let parked = Mutex<[UnsafeContinuation<Void, Never>]>([])

@MainActor func stallScenario() async {
  // Resumed, then finished: the diagnostic must not name it.
  await Task(name: "resumed-and-done") {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      Task { continuation.resume() }
    }
  }.value
  // Parked for good: named in the diagnostic, as is the main task below (unnamed).
  Task(name: "waits-for-login") {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      parked.withLock { $0.append(continuation) }
    }
  }
  await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
  Transcript.note("unreachable")
}

/// A 1,234 ms sleep whose deadline was read 20 ms of real time before the sleep began (a
/// preempted thread): `RuntimeClock` hands the runtime the exact delay; `ContinuousClock`'s
/// real-time deadline is mapped back by `VirtualDelay`, which cannot know it was 1,234.
@MainActor func clockScenario() async {
  // Real time: the probe links CDeterministicWorld, so ContinuousClock reads virtual time.
  func spin(_ duration: Duration) {
    let start = RealClock.monotonicNanoseconds
    while RealClock.since(start) < duration {}
  }
  let clock = RuntimeClock()
  let start = clock.now
  let deadline = start.advanced(by: .milliseconds(1_234))
  spin(.milliseconds(20))
  do {
    try await clock.sleep(until: deadline)
    Transcript.note("RuntimeClock slept \(start.duration(to: clock.now))")
    let continuous = ContinuousClock()
    let before = runtime.now
    let realDeadline = continuous.now.advanced(by: .milliseconds(1_234))
    spin(.milliseconds(20))
    try await continuous.sleep(until: realDeadline)
    Transcript.note("ContinuousClock slept \(runtime.now - before)")
  } catch {
    Transcript.note("cancelled: \(error)")
  }
}

/// Every clock the app can read, and every random source it can draw from, printed before
/// and after a 1 s sleep: with CDeterministicWorld linked each clock moved exactly 1 s and the
/// draws repeat run after run; the real clock still moves (what reports measure).
@MainActor func readsScenario() async {
  func readings(_ label: String) {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    let monotonic = Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    clock_gettime(CLOCK_REALTIME, &spec)
    let wall = Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    var value = timeval()
    gettimeofday(&value, nil)
    print("\(label) date \(Date().timeIntervalSince1970)")
    print("\(label) continuous \(ContinuousClock.now)")
    print("\(label) suspending \(SuspendingClock.now)")
    print("\(label) dispatch \(DispatchTime.now().uptimeNanoseconds)")
    print("\(label) clock_gettime \(monotonic) \(wall)")
    print("\(label) gettimeofday \(value.tv_sec) \(value.tv_usec) time \(time(nil))")
    print("\(label) uuid \(UUID())")
    var generator = SystemRandomNumberGenerator()
    print(
      "\(label) random \(UInt64.random(in: 0...UInt64.max)) \(Double.random(in: 0..<1)) "
        + "\(Int.random(in: 0..<1_000_000)) \(generator.next())")
  }
  print("answers clock reads \(runtime.answersClockReads)")
  print("wall clock \(runtime.wallClock)")
  let realStart = RealClock.monotonicNanoseconds
  let start = ContinuousClock.now
  readings("before")
  while RealClock.since(realStart) < .milliseconds(5) {}  // 5 ms of real work
  print("busy 5 ms: continuous moved \(start.duration(to: .now))")
  print("busy 5 ms: real moved at least 5 ms \(RealClock.since(realStart) >= .milliseconds(5))")
  try? await Task.sleep(for: .seconds(1))
  readings("after")
  print("draws \(runtime.randomDraws)")
}

/// A 100 ms sleep whose deadline was read just before the whole process was stopped for
/// 300 ms of real time (SIGSTOP, then a helper's SIGCONT): the sleep lasts 100 ms of virtual
/// time, as asked, not what the real clock says is left.
@MainActor func stoppedScenario() async {
  let deadline = ContinuousClock.now.advanced(by: .milliseconds(100))
  let realStart = RealClock.monotonicNanoseconds
  var helper = pid_t()
  let command = "sleep 0.3; kill -CONT \(getpid())"
  let words: [String] = ["/bin/sh", "-c", command]
  let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
  defer { for argument in arguments { free(argument) } }
  guard posix_spawn(&helper, "/bin/sh", nil, nil, arguments, environ) == 0 else {
    print("spawn failed")
    return
  }
  raise(SIGSTOP)
  var status: Int32 = 0
  waitpid(helper, &status, 0)
  let stopped = RealClock.since(realStart)
  let before = runtime.now
  try? await ContinuousClock().sleep(until: deadline)
  print("stopped at least 300 ms of real time \(stopped >= .milliseconds(300))")
  print("slept \(runtime.now - before)")
}

Task { @MainActor in
  switch scenario {
  case "reads": await readsScenario()
  case "stopped": await stoppedScenario()
  case "order": await orderScenario()
  case "settle": await settleScenario()
  case "race": await raceScenario()
  case "stall": await stallScenario()
  case "persistence": await persistenceScenario()
  case "clock": await clockScenario()
  default:
    print("unknown scenario '\(scenario)'")
    exit(2)
  }
  await runtime.settle()
  for line in Transcript.shared.lines { print(line) }
  print("off-thread events \(Transcript.shared.offThread + offThreadCalls.withLock { $0 })")
  print("jobs \(runtime.jobsRun > 0 ? "ran" : "none")")
  exit(0)
}
DeterministicRuntime.runMainLoop()
