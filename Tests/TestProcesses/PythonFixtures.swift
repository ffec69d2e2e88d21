import Foundation

/// The python modules every fixture server shares (`Python/` in this target's resources):
/// `weft_websocket`, a standard-library RFC 6455 server. `ServerProcess` and `ChildProcess`
/// put their folder on `PYTHONPATH`, so a fixture script imports them by name and needs no
/// third-party package.
///
/// - Note: Isolation: any (immutable values).
public enum PythonFixtures {
  /// The folder holding the shared python modules.
  ///
  /// - Complexity: O(1) after the first call (the bundle is located once).
  public static let directory: String = {
    guard let folder = Bundle.module.url(forResource: "Python", withExtension: nil) else {
      // A broken build, not a missing dependency: Package.swift copies the folder.
      fatalError("TestProcesses' Python resource folder is missing: check Package.swift")
    }
    return folder.path
  }()

  /// `environment` with `directory` first on `PYTHONPATH` (kept after it when already set).
  ///
  /// - Complexity: O(number of variables).
  public static func environment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [String: String] {
    var result = environment
    if let existing = environment["PYTHONPATH"], !existing.isEmpty {
      result["PYTHONPATH"] = directory + ":" + existing
    } else {
      result["PYTHONPATH"] = directory
    }
    return result
  }
}
