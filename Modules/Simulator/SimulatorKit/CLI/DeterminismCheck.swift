import Foundation
import WeftRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `weft-sim run FLOW --check-determinism`: runs the flow twice, each in a process of its own
/// (the same executable and arguments, with `--json --job-trace FILE`), and compares the two
/// runs job by job — which job ran, of which task, on which lane, with how many runnable, at
/// what virtual time — then count by count. At the first difference it names the job, the
/// flow step it ran in and the likely cause: a job enqueued by a thread outside the runtime,
/// a clock or random source the runtime does not answer. What shuttle's uncontrolled-
/// nondeterminism check does for a schedule, for a whole flow.
///
/// - Note: Isolation: MainActor (the run command's); it blocks while each child runs.
/// - Complexity: two runs of the flow, plus O(j) to compare j jobs.
struct DeterminismCheck {
  let arguments: RunArguments
  let output: Simulator.Output

  /// The report fields that measure the machine, not the app: never compared.
  static let machineFields: Set<String> = [
    "wallNanoseconds", "cpuNanoseconds", "mainActorDeliveryNanoseconds", "databaseNanoseconds",
    "p50Nanoseconds", "p95Nanoseconds", "p99Nanoseconds", "maxNanoseconds",
    "commitsPerSecond", "peakMemoryBytes", "viewMemoryBytes", "bytesPerAttachedView", "date",
  ]

  /// One child run's results.
  struct TracedRun {
    var status: Int32
    var report: String
    var errors: String
    var jobs: [JobRecord]
  }

  func run() -> Int32 {
    if arguments.stateDirectory != nil {
      output.error(
        "error: --check-determinism cannot use --state-dir: the second run would start from "
          + "what the first left (hint: drop --state-dir; each run gets a fresh folder)")
      return 2
    }
    guard DeterministicRuntime.current != nil else {
      output.error(
        "error: --check-determinism needs an app on the deterministic runtime (this one runs "
          + "on threads)")
      return 2
    }
    var runs: [TracedRun] = []
    for index in 1...2 {
      switch runChild(index) {
      case .success(let run): runs.append(run)
      case .failure(let message):
        output.error("error: \(message)")
        return 2
      }
    }
    let (first, second) = (runs[0], runs[1])
    let header = "determinism check · \(arguments.flow) · 2 runs"
    if first.status > 1 || second.status > 1 {
      output.error(
        "error: a run could not start (exit \(first.status), \(second.status)):\n"
          + (first.errors.isEmpty ? second.errors : first.errors))
      return 2
    }
    if let divergence = JobTrace.firstDivergence(first.jobs, second.jobs) {
      output.standard("\(header): NOT DETERMINISTIC\n\(divergence.description)")
      return 1
    }
    let outside = Self.outsideNote(first.jobs)
    if let difference = Self.firstDifference(first.report, second.report) {
      output.standard(
        "\(header): NOT DETERMINISTIC\nevery job ran alike (\(first.jobs.count) jobs), but "
          + "the reports differ at \(difference): something outside the runtime's jobs "
          + "(a thread of its own, a source the runtime does not answer) changed a count"
          + (outside.map { "\n\($0)" } ?? ""))
      return 1
    }
    if first.status != second.status {
      output.standard(
        "\(header): NOT DETERMINISTIC\nthe runs exited \(first.status) and \(second.status)")
      return 1
    }
    output.standard(
      "\(header): deterministic — \(first.jobs.count) jobs ran alike, every count equal "
        + "(exit \(first.status))" + (outside.map { "\nwarning: \($0)" } ?? ""))
    return 0
  }

  /// Names the jobs that threads outside the runtime enqueued, if any: they ran alike this
  /// time, but when is up to real time.
  static func outsideNote(_ jobs: [JobRecord]) -> String? {
    let outside = jobs.filter(\.fromOtherThread)
    guard let firstOutside = outside.first else { return nil }
    let during = firstOutside.mark.isEmpty ? "" : " (during \(firstOutside.mark))"
    return
      "\(outside.count) jobs were enqueued by a thread outside the runtime; the first: "
      + "\(firstOutside.summary)\(during)"
  }

  /// The arguments a child runs with: the command line's, less what the check replaces.
  func childArguments(trace: String) -> [String] {
    var result: [String] = []
    var rest = Array(CommandLine.arguments.dropFirst())[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--check-determinism", "--json", "--no-progress", "--explain": continue
      case "--html", "--trace", "--job-trace":
        _ = rest.popFirst()
        continue
      default: result.append(argument)
      }
    }
    return result + ["--json", "--no-progress", "--job-trace", trace]
  }

  private func runChild(_ index: Int) -> Result<TracedRun, Message> {
    let tracePath =
      FileManager.default.temporaryDirectory.path + "/weft-determinism-\(getpid())-\(index).json"
    defer { unlink(tracePath) }
    let child: ChildRun
    switch ChildRun.run(childArguments(trace: tracePath)) {
    case .success(let run): child = run
    case .failure(let failure): return .failure(Message(failure.description))
    }
    var jobs: [JobRecord] = []
    if let data = FileManager.default.contents(atPath: tracePath) {
      do {
        jobs = try JSONDecoder().decode([JobRecord].self, from: data)
      } catch {
        return .failure(Message("run \(index) wrote an unreadable job trace: \(error)"))
      }
    } else if child.status <= 1 {
      return .failure(Message("run \(index) wrote no job trace\n\(child.error)"))
    }
    return .success(
      TracedRun(status: child.status, report: child.standard, errors: child.error, jobs: jobs))
  }

  /// A failure's text.
  struct Message: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// The first path where two JSON reports differ, machine fields left out; `nil` if none.
  static func firstDifference(_ first: String, _ second: String) -> String? {
    guard let a = try? JSONSerialization.jsonObject(with: Data(first.utf8)),  // try?: nil = differ
      let b = try? JSONSerialization.jsonObject(with: Data(second.utf8))  // try?: nil = differ
    else { return first == second ? nil : "the report itself (not JSON)" }
    return difference(a, b, path: "$")
  }

  private static func difference(_ a: Any, _ b: Any, path: String) -> String? {
    if let a = a as? [String: Any], let b = b as? [String: Any] {
      for key in Set(a.keys).union(b.keys).sorted() where !machineFields.contains(key) {
        guard let x = a[key], let y = b[key] else { return "\(path).\(key) (in one run only)" }
        if let found = difference(x, y, path: "\(path).\(key)") { return found }
      }
      return nil
    }
    if let a = a as? [Any], let b = b as? [Any] {
      guard a.count == b.count else { return "\(path) (\(a.count) vs \(b.count) entries)" }
      for (index, (x, y)) in zip(a, b).enumerated() {
        if let found = difference(x, y, path: "\(path)[\(index)]") { return found }
      }
      return nil
    }
    let (x, y) = ("\(a)", "\(b)")
    return x == y ? nil : "\(path): \(x) vs \(y)"
  }
}
