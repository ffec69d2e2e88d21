import Foundation
import Testing

@testable import SimulatorKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// weft-sim's temporary folders are removed on every way out: a normal run, a flow error,
/// `check`, SIGINT, SIGTERM; after a SIGKILL, by the next run. Each case runs the real
/// debug `weft-sim` binary as a child process with its own `TMPDIR`.
///
/// Kept serialized, and is not about WeftCore's engine state (that lives in the child
/// processes): the tests signal child processes by timing (SIGINT or SIGTERM once a folder
/// appears, SIGKILL mid-run), which parallel children competing for two cores would skew.
@Suite("weft-sim temporary folders", .serialized)
struct TemporaryFolderTests {
  /// The package root (this file is Tests/SimulatorKitTests/CLI/TemporaryFolderTests.swift).
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let binary = root.appendingPathComponent(".build/debug/weft-sim")

  /// A fresh directory to serve as the child's TMPDIR, with a flow file outside it.
  struct Sandbox {
    let base: URL
    let tmp: URL

    init() throws {
      base = FileManager.default.temporaryDirectory
        .appendingPathComponent("weft-sim-test-\(UUID().uuidString)")
      tmp = base.appendingPathComponent("tmp")
      try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    func flow(_ name: String, _ text: String) throws -> String {
      let path = base.appendingPathComponent(name).path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }

    /// The weft-sim folders in the child's TMPDIR.
    func leftovers() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: tmp.path)
        .filter { $0.hasPrefix(TemporaryFolders.prefix) }.sorted()
    }

    func start(_ arguments: [String]) throws -> Process {
      let process = Process()
      process.executableURL = TemporaryFolderTests.binary
      process.arguments = arguments
      var environment = ProcessInfo.processInfo.environment
      environment["TMPDIR"] = tmp.path
      process.environment = environment
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }

    /// Runs to the end; returns how it ended: `exit N` or `signal N`.
    func run(_ arguments: [String]) async throws -> String {
      let process = try start(arguments)
      await TemporaryFolderTests.exit(of: process)
      return TemporaryFolderTests.ending(process)
    }

    /// Waits (up to a minute, polling) until the child made its folder.
    func waitForFolder() async throws -> Bool {
      for _ in 0..<3_000 {
        if try !leftovers().isEmpty { return true }
        try await Task.sleep(for: .milliseconds(20))
      }
      return false
    }

    func remove() {
      // try?: the sandbox is this test's own scratch space; a failure to delete it leaves
      // a folder in the temporary directory and changes no result.
      try? FileManager.default.removeItem(at: base)
    }
  }

  /// A flow that runs for minutes in a debug build, so a signal finds it running.
  static let longFlow = """
    views 1000 observe auth.state
    repeat 200000 { tab dashboard ; tab insights }
    """

  /// Waits for `process` to end by polling, never with `waitUntilExit()` or `usleep`: a
  /// blocking wait holds one of the cooperative pool's threads (two on a 2-core CI machine)
  /// for the whole child run, and two of them stalled every other test for ~25 s, long
  /// enough to fail the networking tests' wall-clock bounds.
  static func exit(of process: Process) async {
    while process.isRunning {
      // try?: a cancelled sleep only makes the poll spin faster until the child ends.
      try? await Task.sleep(for: .milliseconds(10))
    }
  }

  static func ending(_ process: Process) -> String {
    (process.terminationReason == .exit ? "exit " : "signal ") + "\(process.terminationStatus)"
  }

  static func requireBinary() throws {
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      Issue.record("\(binary.path) is missing: run `swift build --build-tests` first")
      throw CancellationError()
    }
  }

  @Test func normalRunsErrorsAndCheckLeaveNoFolder() async throws {
    try Self.requireBinary()
    let sandbox = try Sandbox()
    defer { sandbox.remove() }
    let good = try sandbox.flow("good.flow", "tab insights\nexpect app.tab == insights\n")
    let failing = try sandbox.flow("failing.flow", "tab insights\nexpect app.tab == profile\n")
    let broken = try sandbox.flow("broken.flow", "tab\n")
    #expect(try await sandbox.run([good]) == "exit 0")
    #expect(try sandbox.leftovers() == [])
    #expect(try await sandbox.run([failing]) == "exit 1")
    #expect(try sandbox.leftovers() == [])
    #expect(try await sandbox.run([broken]) == "exit 2")
    #expect(try sandbox.leftovers() == [])
    // `check` used to leave its folder: its shutdown ran in a task that never got to run.
    #expect(try await sandbox.run(["check", good]) == "exit 0")
    #expect(try sandbox.leftovers() == [])
    #expect(try await sandbox.run(["check", broken]) == "exit 2")
    #expect(try sandbox.leftovers() == [])
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func aSignalRemovesTheFolderAndExitsWith128PlusItsNumber(_ signo: Int32) async throws {
    try Self.requireBinary()
    let sandbox = try Sandbox()
    defer { sandbox.remove() }
    let flow = try sandbox.flow("long.flow", Self.longFlow)
    let process = try sandbox.start([flow, "--no-progress"])
    #expect(try await sandbox.waitForFolder())
    // The handlers are installed before the first folder is made, so the first signal
    // counts; it is sent again until the process ends only so that a lost one shows as a
    // wrong exit, not a hang. This test process's `Process` starts the child with SIGINT and
    // SIGTERM blocked (the mask is inherited): `ExitSignals` unblocks them, or they would
    // never arrive and the flow would run to exit 0.
    while process.isRunning {
      kill(process.processIdentifier, signo)
      // try?: a cancelled sleep only makes the loop send the signal sooner.
      try? await Task.sleep(for: .milliseconds(200))
    }
    #expect(Self.ending(process) == "exit \(128 + signo)")
    #expect(try sandbox.leftovers() == [])
  }

  @Test func theNextRunRemovesWhatAKilledRunLeft() async throws {
    try Self.requireBinary()
    let sandbox = try Sandbox()
    defer { sandbox.remove() }
    let flow = try sandbox.flow("long.flow", Self.longFlow)
    let process = try sandbox.start([flow, "--no-progress"])
    #expect(try await sandbox.waitForFolder())
    kill(process.processIdentifier, SIGKILL)
    await Self.exit(of: process)
    #expect(Self.ending(process) == "signal \(SIGKILL)")
    let left = try sandbox.leftovers()
    #expect(left.count == 1)
    // The pid is zero-padded to ten digits (every run's paths have one length).
    let padded = String(format: "%010d", process.processIdentifier)
    #expect(left.first?.hasPrefix("weft-sim-\(padded)-") == true)
    // A folder of a live process (this test's) is not touched by the sweep.
    let live = sandbox.tmp.appendingPathComponent("weft-sim-\(getpid())-live")
    try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)
    let good = try sandbox.flow("good.flow", "tab insights\n")
    #expect(try await sandbox.run(["check", good]) == "exit 0")
    #expect(try sandbox.leftovers() == ["weft-sim-\(getpid())-live"])
  }

  @Test func theSweepRemovesOnlyFoldersOfDeadProcesses() throws {
    let sandbox = try Sandbox()
    defer { sandbox.remove() }
    // Linux pids stay below 2^22; this one cannot be running.
    let dead = "weft-sim-2147483000-\(UUID())"
    let alive = "weft-sim-\(getpid())-\(UUID())"
    let own = "weft-sim-\(ProcessInfo.processInfo.processIdentifier)-x"
    let unrelated = "weft-sim-test-notapid"
    for name in [dead, alive, own, unrelated] {
      try FileManager.default.createDirectory(
        at: sandbox.tmp.appendingPathComponent(name), withIntermediateDirectories: true)
    }
    #expect(TemporaryFolders.sweepStale(in: sandbox.tmp) == [dead])
    #expect(try sandbox.leftovers() == [alive, own, unrelated].sorted())
    #expect(TemporaryFolders.isAlive(getpid()))
    #expect(!TemporaryFolders.isAlive(2_147_483_000))
  }
}
