import Foundation
import TestProcesses
import Testing

/// `run FLOW --check-determinism`: two runs, each in its own process, compared job by job and
/// count by count. `noise-sim` (built next to this test bundle) has a thread that reads
/// /dev/urandom and enqueues jobs from outside the runtime; its quiet flow uses none.
@Suite("weft-sim run --check-determinism")
struct DeterminismCheckTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  func binary(_ name: String) -> URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent(name)
  }

  func noiseFlow(_ name: String) -> String {
    Self.root.appendingPathComponent("Tests/NoiseSimulator/Flows/\(name).flow").path
  }

  /// Two runs of a thread that reads /dev/urandom: they differ (each run enqueues 1 to 256
  /// jobs, as the draw says), and the check names the job enqueued from outside the runtime
  /// and the step it ran in. In the rare run where both draws give the same count and the
  /// jobs land alike, the runs agree and the check warns, naming the same job.
  @Test func aThreadReadingURandomIsNamed() async throws {
    let result = try await ChildProcess.run(
      binary("noise-sim"), [noiseFlow("noise"), "--check-determinism"])
    let differed = result.standard.contains("NOT DETERMINISTIC")
    let warned = result.standard.contains("warning: ")
    #expect(differed || warned, "\(result.standard)\(result.error)")
    #expect(result.status == (differed ? 1 : 0), "\(result.standard)\(result.error)")
    #expect(result.standard.contains("a thread outside the runtime"), "\(result.standard)")
    #expect(result.standard.contains("noise.start"), "\(result.standard)")
  }

  @Test func aFlowOfTheRuntimesOwnJobsIsDeterministic() async throws {
    let result = try await ChildProcess.run(
      binary("noise-sim"), [noiseFlow("quiet"), "--check-determinism"])
    #expect(result.status == 0, "\(result.standard)\(result.error)")
    #expect(result.standard.contains("deterministic — "), "\(result.standard)")
    #expect(!result.standard.contains("warning"), "\(result.standard)")
  }

  /// The health app's login flow: every job and count alike over two runs.
  @Test func theHealthAppsLoginFlowIsDeterministic() async throws {
    let flow = Self.root.appendingPathComponent("Flows/auth.flow").path
    let result = try await ChildProcess.run(binary("weft-sim"), [flow, "--check-determinism"])
    #expect(result.status == 0, "\(result.standard)\(result.error)")
    #expect(result.standard.contains("deterministic — "), "\(result.standard)")
  }

  /// The gate runs a flow three times in one process: when a thread outside the runtime
  /// makes the counts move, `gate --update` refuses to write thresholds and names the counts
  /// as not deterministic, never as a regression. (In the 1-in-65,536 case where all three
  /// draws agree, the counts repeat and it writes them.)
  @Test func theGateRefusesToRecordCountsThatMove() async throws {
    let thresholds = FileManager.default.temporaryDirectory
      .appendingPathComponent("noise-thresholds-\(UInt64.random(in: 0...UInt64.max)).json").path
    defer { try? FileManager.default.removeItem(atPath: thresholds) }  // try?: cleanup only
    let result = try await ChildProcess.run(
      binary("noise-sim"), ["gate", noiseFlow("noise"), "--update", "--thresholds", thresholds])
    if result.status == 0 {
      #expect(result.standard.contains("gate: wrote"), "\(result.standard)\(result.error)")
      return
    }
    #expect(result.status == 1, "\(result.standard)\(result.error)")
    #expect(result.error.contains("NOT DETERMINISTIC"), "\(result.error)")
    #expect(result.error.contains("not writing"), "\(result.error)")
    #expect(!FileManager.default.fileExists(atPath: thresholds))
  }

  @Test func aStateFolderIsRefused() async throws {
    let result = try await ChildProcess.run(
      binary("noise-sim"), [noiseFlow("quiet"), "--check-determinism", "--state-dir", "/tmp"])
    #expect(result.status == 2)
    #expect(result.error.contains("cannot use --state-dir"), "\(result.error)")
  }
}
