import AppFeature
import Foundation
import HealthHarness
import Testing
import WeftNetworking
import WeftRuntime
import WeftSimulation

/// Builds the simulated app; each action settles on the deterministic runtime.
@MainActor
func simulatedApp(
  seed: UInt64 = 1, databasePath: String? = nil, latency: Duration = .milliseconds(40)
) async throws -> SimulatedHealthApp {
  try await SimulatedHealthApp(seed: seed, databasePath: databasePath, latency: latency)
}

extension SimulatedHealthApp {
  /// Virtual time since `instant` (the runtime's clock is the process's, shared by tests).
  func elapsed(since instant: RuntimeClock.Instant) -> Duration {
    instant.duration(to: RuntimeClock().now)
  }
}

extension SimulatedHealthApp {
  /// The value at `path`, failing the test when no such path exists.
  func value(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> ObservedValue {
    guard let observable = paths[path] else {
      Issue.record("no observable path \(path)", sourceLocation: sourceLocation)
      return .none
    }
    return observable.read()
  }
}

/// Requests against the simulated backend, as the app would build them.
enum HTTPRequestFixture {
  static func get(_ path: String) -> HTTPRequest {
    HTTPRequest(method: .get, url: URL(string: "https://health.sim.weft" + path)!)
  }
}
