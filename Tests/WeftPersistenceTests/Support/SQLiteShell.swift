import Foundation
import Testing

/// Another writer: the `sqlite3` command-line shell, run on a real file, for data and file
/// states WeftPersistence itself would never produce (a rollback-journal file, lower-case
/// UUIDs).
enum SQLiteShell {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `sql` on the file at `path` and returns what the shell printed.
  ///
  /// - Throws: `Failure` when the shell is missing or exits non-zero.
  @discardableResult
  static func run(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", "-bail", path]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(sql.utf8))
    try input.fileHandleForWriting.close()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complaint = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(
        description:
          "sqlite3 exited with \(process.terminationStatus) (is the sqlite3 shell installed?): "
          + String(decoding: complaint, as: UTF8.self))
    }
    return String(decoding: printed, as: UTF8.self)
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
