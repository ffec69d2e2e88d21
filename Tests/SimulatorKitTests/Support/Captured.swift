import Foundation
import SimulatorKit
import WeftCore

/// What `Simulator.main` printed, line by line, to each stream.
final class Captured: Sendable {
  private let storage = Locked<(out: [String], err: [String])>(([], []))

  var output: Simulator.Output {
    Simulator.Output(
      standard: { line in self.storage.withLock { $0.out.append(line) } },
      error: { line in self.storage.withLock { $0.err.append(line) } }, isTerminal: false)
  }
  var standard: String { storage.withLock { $0.out.joined(separator: "\n") } }
  var error: String { storage.withLock { $0.err.joined(separator: "\n") } }
}

/// Writes `source` to a fresh temporary flow file and returns its path; the caller removes it.
func temporaryFlowFile(_ source: String) throws -> String {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("weft-sim-test-\(UUID()).flow").path
  try source.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}
