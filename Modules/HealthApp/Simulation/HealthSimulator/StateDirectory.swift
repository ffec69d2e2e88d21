import Foundation
import SimulatorKit

/// The bookkeeping of a `--state-dir` folder: it is created when missing, and counts the
/// launches made on it.
enum StateDirectory {
  /// Creates `folder` if needed and returns how many launches were made on it before this
  /// one (0 for a new folder), recording this one.
  ///
  /// - Throws: `SimulationError` naming the folder when it cannot be created or written.
  /// - Complexity: O(1): one small file read and written.
  static func nextLaunch(in folder: URL) throws(SimulationError) -> UInt64 {
    let file = folder.appendingPathComponent("launches")
    do {
      // Owner-only when created here (the database and the session's store go in it).
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      var count: UInt64 = 0
      if FileManager.default.fileExists(atPath: file.path) {
        let text = try String(contentsOf: file, encoding: .utf8)
        guard let parsed = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
          throw SimulationError(
            "\(file.path) does not hold a launch count; is '\(folder.path)' a weft-sim state "
              + "folder? (hint: pass an empty or new folder to --state-dir)")
        }
        count = parsed
      }
      try Data("\(count + 1)\n".utf8).write(to: file, options: .atomic)
      return count
    } catch let error as SimulationError {
      throw error
    } catch {
      throw SimulationError(
        "cannot use '\(folder.path)' as the state folder: \(error.localizedDescription)")
    }
  }
}
