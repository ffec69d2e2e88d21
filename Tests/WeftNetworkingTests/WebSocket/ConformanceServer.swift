import Foundation
import TestProcesses
import Testing

@testable import WeftNetworking

/// `Fixtures/websocket_conformance_server.py` on 127.0.0.1 for one test: a standard-library
/// python server that breaks RFC 6455 on purpose and reports what the client did.
struct ConformanceServer {
  let port: Int

  func url(_ path: String) -> URL { URL(string: "ws://127.0.0.1:\(port)\(path)")! }

  /// A transport for `path` with a close timeout long enough for a loaded machine (the
  /// closing handshake is what several tests check).
  func transport(
    _ path: String, configure: (inout WebSocketConfiguration) -> Void = { _ in }
  ) -> POSIXWebSocketTransport {
    var configuration = WebSocketConfiguration(closeTimeout: .seconds(10))
    configure(&configuration)
    return POSIXWebSocketTransport(url: url(path), configuration: configuration)
  }

  /// What the server recorded for the case at `path` (it waits until the case is over).
  func report(_ path: String) async throws -> Report {
    let socket = try await transport("/report?case=\(path)").connect()
    defer { socket.close() }
    guard case .text(let text) = try await socket.receive() else {
      throw FixtureError("the report for \(path) is not text")
    }
    let report = try JSONDecoder().decode(Report.self, from: Data(text.utf8))
    if let error = report.error { throw FixtureError(error) }
    return report
  }

  /// A case's report: what the client sent back and how it closed.
  struct Report: Decodable {
    var error: String?
    /// The messages the client sent (binary as hex).
    var echoes: [String]?
    /// The client's close code (1006: it sent no close frame) and reason.
    var close: Int?
    var reason: String?
    /// Whether the client closed before the server sent the rest of a bad message.
    var closeBeforeFinal: Bool?
    /// Whether the server's ping was answered with its payload.
    var pong: Bool?
    /// How many frames each message from the client came in.
    var frames: [Int]?
    /// Whether each message from the client was compressed (permessage-deflate).
    var compressed: [Bool]?
  }
}

func withConformanceServer<T>(_ body: (ConformanceServer) async throws -> T) async throws -> T {
  guard
    let script = Bundle.module.url(
      forResource: "websocket_conformance_server", withExtension: "py", subdirectory: "Fixtures")
  else { throw FixtureError("Fixtures/websocket_conformance_server.py is not in the test bundle") }
  return try await ServerProcess.with(program: "python3", [script.path, "--lifetime", "300"]) {
    line in
    guard let port = announcedFields(line, after: "PORTS")?["ws"].flatMap(Int.init) else {
      throw FixtureError("websocket_conformance_server.py did not start (got \"\(line)\")")
    }
    return try await body(ConformanceServer(port: port))
  }
}

/// An echo client, as Autobahn|Testsuite drives one: every message received is sent back,
/// until `receive` throws; returns the messages and that error.
func echoUntilTheEnd(_ socket: any RealtimeSocket) async -> ([RealtimeMessage], any Error) {
  var messages: [RealtimeMessage] = []
  while true {
    do {
      let message = try await socket.receive()
      messages.append(message)
      try await socket.send(message)
    } catch {
      return (messages, error)
    }
  }
}
