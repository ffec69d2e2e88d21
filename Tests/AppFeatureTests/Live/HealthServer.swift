import Foundation
import TestProcesses
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fixture server (`Fixtures/health_server.py`) on 127.0.0.1 for one test: a few
/// HealthAPI routes in Python's standard library, so the live configuration (URLSession, a
/// database file, the real clock) runs end to end.
struct HealthServer {
  /// The bearer token the fixture issues at every sign-in (`TOKEN` in the script).
  static let token = "live-token-1"

  let port: Int
  /// The WebSocket port (TestProcesses' standard-library `weft_websocket` on a second port).
  let realtimePort: Int

  var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// The insight feed, `ws://127.0.0.1:<port>/realtime`.
  ///
  var realtimeURL: URL { URL(string: "ws://127.0.0.1:\(realtimePort)/realtime")! }

  /// Has the server add an insight and push it over every open WebSocket; returns how many
  /// connections it was sent to.
  func pushInsight(title: String, body: String) async throws -> Int {
    var request = URLRequest(url: baseURL.appendingPathComponent("realtime/push"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONEncoder().encode(["title": title, "body": body])
    let (data, response) = try await URLSession.shared.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw FixtureError(
        description: "POST /realtime/push failed: \(String(decoding: data, as: UTF8.self))")
    }
    return try JSONDecoder().decode([String: Int].self, from: data)["delivered"] ?? 0
  }

  /// The server's counters: applied and replayed writes, requests.
  func stats() async throws -> [String: Int] {
    let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent("stats"))
    return try JSONDecoder().decode([String: Int].self, from: data)
  }
}

struct FixtureError: Error, CustomStringConvertible {
  var description: String
}

/// Runs `body` with a fresh server and always stops the server afterwards.
func withHealthServer<T>(
  isolation: isolated (any Actor)? = #isolation, _ body: (HealthServer) async throws -> T
) async throws -> T {
  guard
    let script = Bundle.module.url(
      forResource: "health_server", withExtension: "py", subdirectory: "Fixtures")
  else {
    throw FixtureError(
      description: "Fixtures/health_server.py is not in the test bundle: check Package.swift")
  }
  return try await ServerProcess.with(program: "python3", [script.path, "--lifetime", "300"]) {
    text in
    // "PORT <http> WS <websocket>"
    let words = text.split(whereSeparator: \.isWhitespace)
    guard words.count == 4, words[0] == "PORT", words[2] == "WS", let port = Int(words[1]),
      let realtimePort = Int(words[3]), realtimePort > 0
    else {
      throw FixtureError(
        description:
          "the fixture server did not print its ports (got \"\(text)\"): is python3 (3.9 or "
          + "later) installed? Run `python3 \(script.path)` with PYTHONPATH="
          + "\(PythonFixtures.directory) to see why it fails")
    }
    return try await body(HealthServer(port: port, realtimePort: realtimePort))
  }
}
