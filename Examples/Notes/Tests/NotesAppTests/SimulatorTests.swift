import Foundation
import Testing

/// What a run of `notes-sim` printed, and its exit code.
struct SimulatorRun {
  var code: Int32
  var standard: String
  var error: String
}

/// notes-sim, the debug binary built next to this test bundle, run as a child process: it
/// runs on the deterministic runtime, which a process installs before anything else runs (a
/// test process cannot).
@Suite("notes-sim")
struct NotesSimulatorTests {
  /// `Examples/Notes/Flows/<name>`.
  static func flow(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Flows/\(name)").path
  }

  /// Runs notes-sim with `arguments`; its output goes through files, so a long report can
  /// never fill a pipe.
  func simulate(_ arguments: [String]) async throws -> SimulatorRun {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("notes-sim")
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("notes-sim-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { Self.remove(folder.path) }
    let out = folder.appendingPathComponent("out")
    let err = folder.appendingPathComponent("err")
    for file in [out, err] {
      guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
      }
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    let code = try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Int32, any Error>) in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do { try process.run() } catch { continuation.resume(throwing: error) }
    }
    return SimulatorRun(
      code: code, standard: try String(contentsOf: out, encoding: .utf8),
      error: try String(contentsOf: err, encoding: .utf8))
  }

  @Test func aBundledFlowPasses() async throws {
    let captured = try await simulate([Self.flow("editor.flow"), "--no-progress"])
    #expect(captured.code == 0, "\(captured.error)")
    #expect(captured.standard.contains("notes: editor validation, save, relaunch"))
    #expect(captured.standard.contains("result: passed"))
  }

  @Test func aFailedExpectationIsOne() async throws {
    let path = try Self.write("note.add title=Milk\nexpect notes.count == 2\n")
    defer { Self.remove(path) }
    let captured = try await simulate([path, "--no-progress"])
    #expect(captured.code == 1)
    #expect(captured.standard.contains("notes.count is 1, expected == 2"))
  }

  @Test func aTypoInAPluginCommandIsTwoWithLocationAndHint() async throws {
    let path = try Self.write("note.add title=Milk\nnote.pinn 1\n")
    defer { Self.remove(path) }
    let captured = try await simulate([path, "--no-progress"])
    #expect(captured.code == 2)
    #expect(captured.error.contains("\(path):2:1: error: unknown command 'note.pinn'"))
    #expect(captured.error.contains("hint: did you mean 'note.pin'?"))
  }

  @Test func aWrongArgumentKindIsTwoBeforeAnythingRuns() async throws {
    let path = try Self.write("note.add title=Milk\nnote.add title=Bread pinned=maybe\n")
    defer { Self.remove(path) }
    let captured = try await simulate([path, "--no-progress"])
    #expect(captured.code == 2)
    #expect(captured.error.contains("\(path):2:"))
    #expect(!captured.standard.contains("result:"))
  }

  @Test func helpListsTheNotesCommandsByCategory() async throws {
    let captured = try await simulate(["--help"])
    #expect(captured.code == 0)
    #expect(captured.standard.contains("note.add title=TEXT [pinned=on|off]"))
    #expect(captured.standard.contains("Note editor"))
  }

  static func write(_ source: String) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("notes-sim-test-\(UUID().uuidString).flow").path
    try source.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func remove(_ path: String) {
    // try?: a leftover file in the temporary directory cannot fail a test.
    try? FileManager.default.removeItem(atPath: path)
  }
}
