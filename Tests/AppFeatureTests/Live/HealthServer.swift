import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fixture server (`Fixtures/health_server.py`) on 127.0.0.1 for one test: a few
/// HealthAPI routes in Python's standard library, so the live configuration (URLSession, a
/// database file, the real clock) runs end to end.
struct HealthServer {
  let port: Int

  var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

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
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["python3", script.path, "--lifetime", "60"]
  let input = Pipe()
  let output = Pipe()
  process.standardInput = input
  process.standardOutput = output
  try process.run()
  defer {
    process.terminate()
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
  var line = Data()
  while !line.contains(UInt8(ascii: "\n")) {
    let chunk = output.fileHandleForReading.availableData
    if chunk.isEmpty { break }
    line.append(chunk)
  }
  let text = String(decoding: line, as: UTF8.self)
  guard text.hasPrefix("PORT "),
    let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
  else {
    throw FixtureError(
      description:
        "the fixture server did not print its port (got \"\(text)\"): is python3 installed?")
  }
  return try await body(HealthServer(port: port))
}
