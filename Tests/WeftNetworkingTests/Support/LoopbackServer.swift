import Foundation
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

/// Runs `body` with a fresh loopback server and kills the server afterwards, whatever happens.
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
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["python3", script.path, "--lifetime", "300"]
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
  let server = try readPorts(from: output.fileHandleForReading)
  return try await body(server)
}

private func readPorts(from handle: FileHandle) throws -> LoopbackServer {
  var line = Data()
  while !line.contains(UInt8(ascii: "\n")) {
    let chunk = handle.availableData
    if chunk.isEmpty { break }
    line.append(chunk)
  }
  let text = String(decoding: line, as: UTF8.self)
  var ports: [String: Int] = [:]
  for field in text.split(whereSeparator: \.isWhitespace).dropFirst() {
    let parts = field.split(separator: "=")
    if parts.count == 2, let port = Int(parts[1]) { ports[String(parts[0])] = port }
  }
  guard text.hasPrefix("PORTS"), let http = ports["http"], let ws = ports["ws"],
    let closed = ports["closed"]
  else {
    throw FixtureError(
      "the test server did not print its ports (got \"\(text)\"): is python3 installed?")
  }
  return LoopbackServer(httpPort: http, webSocketPort: ws, closedPort: closed)
}

struct FixtureError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
