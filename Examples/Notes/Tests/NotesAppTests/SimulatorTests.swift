import Foundation
import NotesSimulator
import SimulatorKit
import Synchronization
import Testing

/// Collects what the simulator prints.
final class Captured: Sendable {
  private let storage = Mutex<(out: [String], err: [String])>(([], []))
  var output: Simulator.Output {
    Simulator.Output(
      standard: { line in self.storage.withLock { $0.out.append(line) } },
      error: { line in self.storage.withLock { $0.err.append(line) } }, isTerminal: false)
  }
  var standard: String { storage.withLock { $0.out.joined(separator: "\n") } }
  var error: String { storage.withLock { $0.err.joined(separator: "\n") } }
}

@Suite("notes-sim", .serialized)
@MainActor
struct NotesSimulatorTests {
  /// `Examples/Notes/Flows/<name>`.
  static func flow(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Flows/\(name)").path
  }

  @Test func aBundledFlowPasses() async {
    let captured = Captured()
    let code = await Simulator.main(
      [Self.flow("editor.flow"), "--no-progress"], plugin: NotesSimulation.plugin,
      output: captured.output)
    #expect(code == 0, "\(captured.error)")
    #expect(captured.standard.contains("notes: editor validation, save, relaunch"))
    #expect(captured.standard.contains("result: passed"))
  }

  @Test func aFailedExpectationIsOne() async throws {
    let path = try Self.write("note.add title=Milk\nexpect notes.count == 2\n")
    defer { Self.remove(path) }
    let captured = Captured()
    let code = await Simulator.main(
      [path, "--no-progress"], plugin: NotesSimulation.plugin, output: captured.output)
    #expect(code == 1)
    #expect(captured.standard.contains("notes.count is 1, expected == 2"))
  }

  @Test func aTypoInAPluginCommandIsTwoWithLocationAndHint() async throws {
    let path = try Self.write("note.add title=Milk\nnote.pinn 1\n")
    defer { Self.remove(path) }
    let captured = Captured()
    let code = await Simulator.main(
      [path, "--no-progress"], plugin: NotesSimulation.plugin, output: captured.output)
    #expect(code == 2)
    #expect(captured.error.contains("\(path):2:1: error: unknown command 'note.pinn'"))
    #expect(captured.error.contains("hint: did you mean 'note.pin'?"))
  }

  @Test func aWrongArgumentKindIsTwoBeforeAnythingRuns() async throws {
    let path = try Self.write("note.add title=Milk\nnote.add title=Bread pinned=maybe\n")
    defer { Self.remove(path) }
    let captured = Captured()
    let code = await Simulator.main(
      [path, "--no-progress"], plugin: NotesSimulation.plugin, output: captured.output)
    #expect(code == 2)
    #expect(captured.error.contains("\(path):2:"))
    #expect(!captured.standard.contains("result:"))
  }

  @Test func helpListsTheNotesCommandsByCategory() async {
    let captured = Captured()
    #expect(
      await Simulator.main(["--help"], plugin: NotesSimulation.plugin, output: captured.output) == 0
    )
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
