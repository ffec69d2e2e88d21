import Foundation
import TestProcesses
import Testing

@testable import WeftNetworking

/// permessage-deflate (RFC 7692) against the standard-library server (python's zlib): both
/// directions, context takeover and its absence, window bits, and a decompression bomb.
@Suite("POSIX WebSocket permessage-deflate against python's zlib")
struct POSIXWebSocketDeflateTests {
  /// A JSON insight like the health app's feed: repetitive, so it compresses.
  private let insight =
    #"{"id":"00000000-0000-4000-8000-000000000002","title":"Resting heart rate","#
    + #""body":"Your resting heart rate was 64 bpm, steady for a week.","priority":"low"}"#

  /// Sends each message and checks its echo; returns the server's report.
  private func echo(
    _ messages: [RealtimeMessage], path: String, server: ConformanceServer
  ) async throws -> ConformanceServer.Report {
    let socket = try await server.transport(path) { $0.compression = WebSocketCompression() }
      .connect()
    for message in messages {
      try await socket.send(message)
      #expect(try await socket.receive() == message)
    }
    socket.close()
    return try await server.report(path)
  }

  @Test func compressesBothWaysWithContextTakeover() async throws {
    try await withConformanceServer { server in
      // The same message three times: with context takeover the later ones are a few bytes
      // of back-references, which only an inflater that kept its window can read.
      let blob = Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 % 7) })
      let messages: [RealtimeMessage] = [
        .text(insight), .text(insight), .text(insight), .data(blob), .text(""),
      ]
      let report = try await echo(messages, path: "/deflate/echo", server: server)
      #expect(report.compressed == [true, true, true, true, true])
      #expect(report.close == 1000)
      #expect(report.echoes?.count == 5)
    }
  }

  @Test func noContextTakeoverResetsBothSides() async throws {
    try await withConformanceServer { server in
      let messages = Array(repeating: RealtimeMessage.text(insight), count: 3)
      let report = try await echo(messages, path: "/deflate/no-context", server: server)
      // The server's decompressor is new for each message: it fails (1002) if the client
      // compressed against an earlier one.
      #expect(report.compressed == [true, true, true])
      #expect(report.close == 1000)
    }
  }

  @Test func theServersWindowBitsAreHonoured() async throws {
    try await withConformanceServer { server in
      // 2,000 varied bytes twice: a 15-bit window would refer 2,000 bytes back, which the
      // server's 10-bit (1,024-byte) window cannot inflate.
      var random = SeededRandom(seed: 29)
      let half = (0..<2_000).map { _ in UInt8.random(in: 0...255, using: &random) }
      let report = try await echo(
        [.data(Data(half + half)), .text(insight + insight)], path: "/deflate/window-10",
        server: server)
      #expect(report.compressed == [true, true])
      #expect(report.close == 1000)
    }
  }

  @Test func aDecompressionBombFailsWith1009() async throws {
    try await withConformanceServer { server in
      let socket = try await server.transport("/deflate/bomb") {
        $0.compression = WebSocketCompression()
        $0.maxMessageSize = 1 << 20
      }.connect()
      await #expect(throws: WebSocketError.messageTooLarge(limit: 1 << 20)) {
        try await socket.receive()
      }
      let report = try await server.report("/deflate/bomb")
      #expect(report.close == 1009)
    }
  }

  @Test func anUnknownParameterFailsTheConnect() async throws {
    try await withConformanceServer { server -> Void in
      await #expect(
        throws: WebSocketError.handshakeFailed(
          "permessage-deflate: unknown parameter \"mystery=1\" in \"permessage-deflate; mystery=1\""
        )
      ) {
        try await server.transport("/deflate/unknown-param") {
          $0.compression = WebSocketCompression()
        }.connect()
      }
    }
  }

  @Test func withoutAnOfferNothingIsCompressed() async throws {
    try await withConformanceServer { server in
      let socket = try await server.transport("/deflate/echo").connect()
      try await socket.send(.text(insight))
      #expect(try await socket.receive() == .text(insight))
      socket.close()
      #expect(try await server.report("/deflate/echo").compressed == [false])
    }
  }
}

/// The offer and the checks of the server's answer, without a server.
@Suite("permessage-deflate negotiation")
struct WebSocketCompressionTests {
  @Test func offersWhatIsConfigured() {
    #expect(WebSocketCompression().offer == "permessage-deflate; client_max_window_bits")
    #expect(
      WebSocketCompression(
        clientMaxWindowBits: 12, serverMaxWindowBits: 10, clientNoContextTakeover: true,
        serverNoContextTakeover: true
      ).offer
        == "permessage-deflate; client_max_window_bits=12; server_max_window_bits=10; "
        + "client_no_context_takeover; server_no_context_takeover")
  }

  @Test func acceptsTheServersChoicesAndRefusesTheRest() throws {
    let offer = WebSocketCompression()
    let settled = try offer.accept(
      "permessage-deflate; server_no_context_takeover; client_max_window_bits=10")
    #expect(settled.serverNoContextTakeover)
    #expect(!settled.clientNoContextTakeover)
    #expect(settled.clientMaxWindowBits == 10)
    #expect(settled.serverMaxWindowBits == 15)
    for answer in [
      "x-webkit-deflate-frame", "permessage-deflate, permessage-deflate",
      "permessage-deflate; client_max_window_bits=8",
      "permessage-deflate; server_max_window_bits=16",
      "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
      "permessage-deflate; server_no_context_takeover=1",
    ] {
      #expect(throws: WebSocketError.self, "\(answer)") { try offer.accept(answer) }
    }
  }

  @Test func aCompressedFrameWithoutDeflateIsAViolation() {
    var decoder = WebSocketDecoder()
    decoder.append([0xC1, 0x01, 0x00])
    #expect(throws: WebSocketError.protocolViolation("reserved bits set (no extension)")) {
      try decoder.next()
    }
  }
}
