import Foundation
import TestProcesses
import Testing

@testable import WeftNetworking

/// Round 2's API against a real server: subprotocols, handshake headers, close codes, how a
/// socket ended, control frames, the send fragment size, and `RealtimeConnection` passing
/// them through.
@Suite("POSIX WebSocket API: subprotocols, headers, close codes, control frames, fragments")
struct POSIXWebSocketAPITests {
  private struct Handshake: Decodable {
    var subprotocol: String?
    var authorization: String?
    var origin: String?
  }

  @Test func offersSubprotocolsAndSendsExtraHeaders() async throws {
    try await withConformanceServer { server in
      let socket = try await server.transport("/subprotocol/echo") {
        $0.subprotocols = ["chat.v1", "chat.v2"]
        $0.headers["Authorization"] = "Bearer token-1"
        $0.headers["Origin"] = "https://app.example"
      }.connect()
      defer { socket.close() }
      // The fixture chooses the last one offered.
      #expect(socket.subprotocol == "chat.v2")
      guard case .text(let text) = try await socket.receive() else {
        Issue.record("the handshake report is not text")
        return
      }
      let seen = try JSONDecoder().decode(Handshake.self, from: Data(text.utf8))
      #expect(seen.subprotocol == "chat.v2")
      #expect(seen.authorization == "Bearer token-1")
      #expect(seen.origin == "https://app.example")
    }
  }

  @Test func refusesHeadersTheHandshakeWritesItself() async throws {
    try await withConformanceServer { server in
      await #expect(
        throws: WebSocketError.handshakeFailed(
          "the header \"Sec-WebSocket-Protocol\" is written by the handshake itself "
            + "(subprotocols: WebSocketConfiguration.subprotocols)")
      ) {
        try await server.transport("/record-close") {
          $0.headers["Sec-WebSocket-Protocol"] = "chat"
        }.connect()
      }
      await #expect(throws: WebSocketError.self) {
        try await server.transport("/record-close") { $0.headers["X-Evil"] = "a\r\nHost: b" }
          .connect()
      }
    }
  }

  @Test func closeSendsTheCodeAndReasonAndTheEndingIsReadable() async throws {
    try await withConformanceServer { server in
      let socket = try await server.transport("/record-close").connect()
      socket.close(code: 4100, reason: "logging out")
      let report = try await server.report("/record-close")
      #expect(report.close == 4100)
      #expect(report.reason == "logging out")
      let closure = await socket.closure()
      // The server echoed the code; the handshake completed both ways.
      #expect(closure?.code == 4100)
      #expect(closure?.sentCode == 4100)
      #expect(closure?.wasClean == true)
      await #expect(
        throws: WebSocketError.closed(code: 4100, reason: "closed by the client: logging out")
      ) {
        try await socket.receive()
      }
    }
  }

  @Test func controlFramesAreObservableWhenAskedFor() async throws {
    try await withConformanceServer { server in
      let socket = try await server.transport("/control-frames") {
        $0.observesControlFrames = true
      }.connect()
      #expect(try await socket.receive() == .text("done"))
      var frames = socket.controlFrames.makeAsyncIterator()
      #expect(await frames.next() == .ping(Array("p1".utf8)))
      #expect(await frames.next() == .pong(Array("u1".utf8)))
      socket.close()
      #expect(await frames.next() == nil)  // finishes with the socket

      // Not asked for: the stream is empty.
      let quiet = try await server.transport("/control-frames").connect()
      #expect(try await quiet.receive() == .text("done"))
      var none = quiet.controlFrames.makeAsyncIterator()
      #expect(await none.next() == nil)
      quiet.close()
    }
  }

  @Test func sendsInFramesOfTheConfiguredSize() async throws {
    try await withConformanceServer { server in
      let socket = try await server.transport("/frames") { $0.fragmentSize = 1_000 }.connect()
      let blob = Data((0..<2_500).map { UInt8(truncatingIfNeeded: $0) })
      try await socket.send(.data(blob))
      try await socket.send(.text("héllo, fragments"))
      socket.close()
      let report = try await server.report("/frames")
      #expect(report.frames == [3, 1])
      #expect(
        report.echoes == [blob.map { String(format: "%02x", $0) }.joined(), "héllo, fragments"])
    }
  }

  @Test func realtimeConnectionPassesTheAPIThrough() async throws {
    try await withConformanceServer { server in
      let connection = RealtimeConnection(
        transport: server.transport("/subprotocol/echo") { $0.subprotocols = ["chat.v1"] },
        heartbeat: nil)
      await connection.connect()
      for await state in connection.states where state == .connected { break }
      #expect(await connection.subprotocol == "chat.v1")
      await connection.disconnect(code: 4100, reason: "bye")
      var closures = connection.closures.makeAsyncIterator()
      let closure = await closures.next()
      #expect(closure?.sentCode == 4100)
      #expect(closure?.wasClean == true, "\(String(describing: closure))")
      #expect(await connection.lastClosure == closure)

      let observed = RealtimeConnection(
        transport: server.transport("/control-frames") { $0.observesControlFrames = true },
        heartbeat: nil)
      await observed.connect()
      var frames = observed.controlFrames.makeAsyncIterator()
      #expect(await frames.next() == .ping(Array("p1".utf8)))
      #expect(await frames.next() == .pong(Array("u1".utf8)))
      await observed.disconnect()
    }
  }
}
