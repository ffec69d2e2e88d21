import AppFeature
import Foundation
import Testing
import WeftNetworking
import WeftSimulation

/// Builds the simulated app (with a watchdog short enough for tests).
@MainActor
func simulatedApp(
  seed: UInt64 = 1, databasePath: String? = nil, latency: Duration = .milliseconds(40)
) async throws -> AppRuntime {
  let app = try await AppRuntime.build(
    .simulated(seed: seed, databasePath: databasePath, latency: latency))
  app.settler.stallTimeout = .seconds(20)
  return app
}

extension AppRuntime {
  /// The value at `path`, failing the test when no such path exists.
  func value(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> ObservedValue {
    guard let observable = paths[path] else {
      Issue.record("no observable path \(path)", sourceLocation: sourceLocation)
      return .none
    }
    return observable.read()
  }
}

/// A temporary database path, removed (with its WAL files) by `remove()`.
struct TemporaryDatabase {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("weft-app-\(UUID().uuidString).sqlite").path

  func remove() {
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
  }
}

/// Requests against the simulated backend, as the app would build them.
enum HTTPRequestFixture {
  static func get(_ path: String) -> HTTPRequest {
    HTTPRequest(method: .get, url: URL(string: "https://health.sim.weft" + path)!)
  }
}
