import Foundation
import TestProcesses
import Testing

/// The fixture server (`Fixtures/test_server.py`) running on 127.0.0.1 for one test.
///
/// The script binds ports the kernel chooses and prints them; it exits when its stdin
/// closes, when its parent changes, or after its lifetime — so a crashed test run leaves
/// nothing behind. `withLoopbackServer` always terminates it and waits for it.
struct LoopbackServer {
  let httpPort: Int
  let webSocketPort: Int
  /// A port that was bound and released: connecting to it is refused.
  let closedPort: Int

  var baseURL: URL { URL(string: "http://127.0.0.1:\(httpPort)")! }
  var webSocketURL: URL { URL(string: "ws://127.0.0.1:\(webSocketPort)/")! }
  var refusedURL: URL { URL(string: "http://127.0.0.1:\(closedPort)")! }
}

/// Runs `body` with a fresh loopback server and stops the server afterwards, whatever
/// happens (awaited, never blocking a thread of the cooperative pool).
func withLoopbackServer<T>(
  _ body: (LoopbackServer) async throws -> T
) async throws -> T {
  guard
    let script = Bundle.module.url(
      forResource: "test_server", withExtension: "py", subdirectory: "Fixtures")
  else {
    throw FixtureError(
      "Fixtures/test_server.py is not in the test bundle: check resources in Package.swift")
  }
  return try await ServerProcess.with(program: "python3", [script.path, "--lifetime", "300"]) {
    try await body(try readPorts(from: $0))
  }
}

private func readPorts(from text: String) throws -> LoopbackServer {
  let ports = announcedFields(text, after: "PORTS")?.compactMapValues { Int($0) } ?? [:]
  guard let http = ports["http"], let ws = ports["ws"], let closed = ports["closed"] else {
    throw FixtureError(
      "the test server did not print its ports (got \"\(text)\"): is python3 installed?")
  }
  return LoopbackServer(httpPort: http, webSocketPort: ws, closedPort: closed)
}

struct FixtureError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
