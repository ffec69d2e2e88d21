import Foundation
import Testing

@testable import WeftNetworking

@Suite("WebSocket handshake")
struct WebSocketHandshakeTests {
  private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  @Test func sha1MatchesTheFIPSAndRFC3174Vectors() {
    #expect(hex(sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(hex(sha1([UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(
      hex(sha1(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
        == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    #expect(
      hex(sha1([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
        == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    // RFC 3174 test 4: "01234567" repeated 80 times (640 bytes, many blocks).
    #expect(
      hex(
        sha1(
          Array(
            String(
              repeating: "0123456701234567012345670123456701234567012345670123456701234567",
              count: 10
            ).utf8)))
        == "dea356a2cddd90c7a7ecedc5ebb563934f460452")
  }

  @Test func acceptValueMatchesRFC6455Example() {
    #expect(
      WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==")
        == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  private func handshake(seed: UInt64 = 1) -> WebSocketHandshake {
    var random = SeededRandom(seed: seed)
    return WebSocketHandshake(host: "127.0.0.1", port: 8080, path: "/feed", random: &random)
  }

  @Test func requestCarriesARandom16ByteKey() {
    let first = handshake(seed: 1)
    let text = String(decoding: first.request, as: UTF8.self)
    #expect(text.hasPrefix("GET /feed HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"))
    #expect(text.contains("Sec-WebSocket-Key: \(first.key)\r\n"))
    #expect(text.contains("Sec-WebSocket-Version: 13\r\n"))
    #expect(text.hasSuffix("\r\n\r\n"))
    #expect(Data(base64Encoded: first.key)?.count == 16)
    #expect(handshake(seed: 2).key != first.key)
  }

  private func response(accept: String, status: String = "101 Switching Protocols") -> [UInt8] {
    Array(
      ("HTTP/1.1 \(status)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: \(accept)\r\n\r\n").utf8)
  }

  @Test func parsesAValidAnswerIncrementallyAndLeavesTrailingFrames() throws {
    let shake = handshake()
    let answer = response(accept: WebSocketHandshake.acceptValue(forKey: shake.key))
    for split in 0..<answer.count {
      #expect(try shake.parseResponse(answer[..<split]) == nil, "split \(split)")
    }
    #expect(try shake.parseResponse(answer + [0x81, 0x00]) == answer.count)
  }

  @Test func rejectsAWrongAcceptAStatusAndGarbage() {
    let shake = handshake()
    #expect(throws: WebSocketError.self) { try shake.parseResponse(response(accept: "bogus=")) }
    #expect(throws: WebSocketError.self) {
      try shake.parseResponse(
        response(accept: WebSocketHandshake.acceptValue(forKey: shake.key), status: "200 OK"))
    }
    do {
      _ = try shake.parseResponse(Array("SSH-2.0-OpenSSH\r\n".utf8))
      Issue.record("garbage parsed")
    } catch {
      guard case .handshakeFailed(let why) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(why.contains("not HTTP"))
    }
    let endless = Array("HTTP/1.1 101 OK\r\nX: ".utf8) + [UInt8](repeating: 65, count: 20_000)
    #expect(throws: WebSocketError.self) { try shake.parseResponse(endless) }
  }

  private func answer(_ shake: WebSocketHandshake, protocols: [String]) -> [UInt8] {
    Array(
      ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + protocols.map { "Sec-WebSocket-Protocol: \($0)\r\n" }.joined()
        + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: shake.key))\r\n\r\n")
        .utf8)
  }

  @Test func offersSubprotocolsAndExtraHeaders() {
    var random = SeededRandom(seed: 5)
    let shake = WebSocketHandshake(
      host: "h", port: 1, path: "/", headers: [("Authorization", "Bearer t")],
      subprotocols: ["chat.v2", "chat.v1"], random: &random)
    let text = String(decoding: shake.request, as: UTF8.self)
    #expect(text.contains("\r\nSec-WebSocket-Protocol: chat.v2, chat.v1\r\n"))
    #expect(text.contains("\r\nAuthorization: Bearer t\r\n"))
  }

  /// RFC 6455 §4.1: a subprotocol the client did not offer fails the connection.
  @Test func refusesASubprotocolThatWasNotOffered() throws {
    var random = SeededRandom(seed: 6)
    let offered = WebSocketHandshake(
      host: "h", port: 1, path: "/", subprotocols: ["chat.v1"], random: &random)
    #expect(try offered.accept(answer(offered, protocols: ["chat.v1"]))?.subprotocol == "chat.v1")
    #expect(try offered.accept(answer(offered, protocols: []))?.subprotocol == nil)
    #expect(
      throws: WebSocketError.handshakeFailed(
        "the server chose the subprotocol \"chat.v9\", which was not offered (offered: chat.v1)")
    ) { try offered.accept(self.answer(offered, protocols: ["chat.v9"])) }
    // Two choices are no choice.
    #expect(throws: WebSocketError.self) {
      try offered.accept(self.answer(offered, protocols: ["chat.v1", "chat.v1"]))
    }
    let none = handshake()
    #expect(
      throws: WebSocketError.handshakeFailed(
        "the server chose the subprotocol \"chat.v1\"; none was offered")
    ) { try none.accept(self.answer(none, protocols: ["chat.v1"])) }
  }
}
