import Foundation

/// A temporary database path, removed (with its WAL files) by `remove()`.
public struct TemporaryDatabase: Sendable {
  /// The file's path (not created until a database is opened there).
  public let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("weft-app-\(UUID().uuidString).sqlite").path

  /// Makes a fresh path.
  public init() {}

  /// Removes the file and its `-wal` and `-shm` companions.
  public func remove() {
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)  // try?: may not exist
    }
  }
}
