import Foundation
import TestProcesses
import Testing

/// Another writer: the `sqlite3` command-line shell, run on a real file, for data and file
/// states WeftPersistence itself would never produce (a rollback-journal file, lower-case
/// UUIDs).
enum SQLiteShell {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `sql` on the file at `path` and returns what the shell printed. The shell is
  /// awaited (TestProcesses), never blocked on.
  ///
  /// - Throws: `Failure` when the shell is missing or exits non-zero.
  @discardableResult
  static func run(_ path: String, _ sql: String) async throws -> String {
    let result = try await ChildProcess.run(
      program: "sqlite3", ["-bail", path], input: Data(sql.utf8))
    guard result.status == 0, !result.signalled else {
      throw Failure(
        description:
          "sqlite3 exited with \(result.status) (is the sqlite3 shell installed?): "
          + result.error)
    }
    return result.standard
  }
}

/// A file's bytes and the folder around it, to show that nothing changed.
struct FileSnapshot: Equatable, CustomStringConvertible {
  var bytes: Data
  var modified: Date?
  /// Every name in the file's folder (a `-wal`, `-shm` or `-journal` would show here).
  var folder: [String]

  init(_ path: String) throws {
    let url = URL(fileURLWithPath: path)
    bytes = try Data(contentsOf: url)
    modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    folder = try FileManager.default.contentsOfDirectory(
      atPath: url.deletingLastPathComponent().path
    ).sorted()
  }

  /// FNV-1a, 64 bits, of the bytes: a short fingerprint for failure messages.
  var hash: UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  var description: String {
    "\(bytes.count) bytes, fnv1a64 \(String(hash, radix: 16)), folder \(folder)"
  }
}
