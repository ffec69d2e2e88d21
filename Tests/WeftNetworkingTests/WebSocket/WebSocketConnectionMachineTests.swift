import Foundation
import Testing

@testable import WeftNetworking

@Suite("WebSocket connection machine")
struct WebSocketConnectionMachineTests {
  private func openMachine(limit: Int = 1 << 20) -> (WebSocketConnectionMachine, SeededRandom) {
    var random = SeededRandom(seed: 3)
    let handshake = WebSocketHandshake(host: "h", port: 80, path: "/", random: &random)
    var machine = WebSocketConnectionMachine(handshake: handshake, maxMessageSize: limit)
    let answer =
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: handshake.key))\r\n\r\n"
    // The first frame arrives in the same read as the handshake.
    let bytes = Array(answer.utf8) + [0x81, 0x02, 0x68, 0x69]
    #expect(machine.received(bytes, maskingKeys: &random) == [.opened, .message(.text("hi"))])
    #expect(machine.state == .open)
    // The application took "hi" and asks for the next message: nothing was held.
    #expect(machine.messagesConsumed(maskingKeys: &random).isEmpty)
    return (machine, random)
  }

  /// Decodes what the client wrote, as a server would.
  private func serverView(_ outputs: [WebSocketConnectionMachine.Output]) throws -> [WebSocketEvent]
  {
    var decoder = WebSocketDecoder(role: .server)
    for case .write(let bytes) in outputs { decoder.append(bytes) }
    var events: [WebSocketEvent] = []
    while let event = try decoder.next() { events.append(event) }
    return events
  }

  @Test func answersPingsWithMaskedPongs() throws {
    var (machine, random) = openMachine()
    let outputs = machine.received([0x89, 0x02, 7, 8], maskingKeys: &random)
    #expect(try serverView(outputs) == [.pong([7, 8])])
  }

  @Test func serverCloseIsEchoedAndFinishes() throws {
    var (machine, random) = openMachine()
    let outputs = machine.received([0x88, 0x02, 0x0F, 0xA1], maskingKeys: &random)
    #expect(try serverView(outputs) == [.close(code: 4001, reason: "")])
    #expect(outputs.last == .finished(.closed(code: 4001, reason: "")))
    #expect(machine.state == .closed)
    #expect(throws: WebSocketError.self) { try machine.send(.text("x"), maskingKeys: &random) }
    #expect(machine.fail(.idleTimedOut).isEmpty)
  }

  @Test func clientCloseWaitsForTheServersClose() throws {
    var (machine, random) = openMachine()
    let outputs = machine.close(code: 1000, reason: "done", maskingKeys: &random)
    #expect(try serverView(outputs) == [.close(code: 1000, reason: "done")])
    #expect(machine.state == .closing)
    #expect(machine.close(maskingKeys: &random).isEmpty)
    #expect(
      machine.received([0x88, 0x02, 0x03, 0xE8], maskingKeys: &random)
        == [.finished(.closed(code: 1000, reason: ""))])
  }

  @Test func protocolErrorsSendTheirCloseCode() throws {
    var (machine, random) = openMachine(limit: 10)
    let outputs = machine.received(
      [0x82, 0x0B] + [UInt8](repeating: 0, count: 11), maskingKeys: &random)
    guard case .close(let code, _) = try serverView(outputs).first else {
      Issue.record("no close frame")
      return
    }
    #expect(code == 1009)
    #expect(outputs.last == .finished(.messageTooLarge(limit: 10)))
  }

  @Test func aServerCloseAfterAnUntakenMessageWaitsForTheApplication() throws {
    var (machine, random) = openMachine()
    // "bye" then a close 4002 in one read: the message is output, the close is held.
    let outputs = machine.received(
      [0x81, 0x03] + Array("bye".utf8) + [0x88, 0x02, 0x0F, 0xA2], maskingKeys: &random)
    #expect(outputs == [.message(.text("bye"))])
    #expect(machine.holdsEnd)
    #expect(machine.state == .open)
    // The application may still answer it.
    let echo = try machine.send(.text("bye"), maskingKeys: &random)
    #expect(try serverView([.write(echo)]) == [.message(.text("bye"))])
    // It asks for the next message: the close is echoed and the connection finishes.
    let end = machine.messagesConsumed(maskingKeys: &random)
    #expect(try serverView(end) == [.close(code: 4002, reason: "")])
    #expect(end.last == .finished(.closed(code: 4002, reason: "")))
    #expect(machine.closeReceived == .init(code: 4002, reason: ""))
    #expect(machine.closeSent == .init(code: 4002, reason: ""))
  }

  @Test func aBadFrameAfterAnUntakenMessageFailsOnlyOnceItIsTaken() throws {
    var (machine, random) = openMachine()
    // "ok" then a frame with a reserved bit set.
    let outputs = machine.received(
      [0x81, 0x02] + Array("ok".utf8) + [0xC1, 0x01, 0x78], maskingKeys: &random)
    #expect(outputs == [.message(.text("ok"))])
    #expect(machine.holdsEnd)
    let end = machine.messagesConsumed(maskingKeys: &random)
    guard case .close(let code, _) = try serverView(end).first else {
      Issue.record("no close frame in \(end)")
      return
    }
    #expect(code == 1002)
    guard case .finished(.protocolViolation) = end.last else {
      Issue.record("\(end)")
      return
    }
    #expect(machine.state == .closed)
  }

  @Test func aDroppedSocketReportsTheHeldEndNotTheDrop() {
    var (machine, random) = openMachine()
    _ = machine.received([0x81, 0x01, 0x61, 0x88, 0x02, 0x0F, 0xA2], maskingKeys: &random)
    #expect(machine.holdsEnd)
    let end = machine.fail(.closed(code: nil, reason: "the server closed the TCP connection"))
    #expect(end.last == .finished(.closed(code: 4002, reason: "")))
  }

  /// The conformance race (`aMessageBeforeTheServersCloseIsDeliveredFirst` under load): the
  /// server's close arrived, then its end of stream. The outcome is the server's close from
  /// the moment the machine finishes, and the end of stream read afterwards changes nothing:
  /// the owner records `outcome` with the transition, so a reader thread that sees `closed`
  /// never reports "the connection ended".
  @Test func theServersCloseStaysTheOutcomeWhenTheEndOfStreamFollows() throws {
    var (machine, random) = openMachine()
    // "last words", then a close 4002 "done", in one read.
    let closeFrame: [UInt8] = [0x88, 0x06, 0x0F, 0xA2] + Array("done".utf8)
    let outputs = machine.received(
      [0x81, 0x0A] + Array("last words".utf8) + closeFrame, maskingKeys: &random)
    #expect(outputs == [.message(.text("last words"))])
    // Held for the application: not over yet.
    #expect(machine.outcome == nil)
    let end = machine.messagesConsumed(maskingKeys: &random)
    #expect(try serverView(end) == [.close(code: 4002, reason: "")])
    #expect(end.last == .finished(.closed(code: 4002, reason: "done")))
    #expect(machine.state == .closed)
    #expect(machine.outcome == .closed(code: 4002, reason: "done"))
    // The server got the echo and closed the TCP connection: the first end wins.
    #expect(machine.fail(.closed(code: nil, reason: "the server closed the TCP connection")) == [])
    #expect(machine.fail(.socket("recv: Connection reset by peer")) == [])
    #expect(machine.outcome == .closed(code: 4002, reason: "done"))
    #expect(machine.closeReceived == .init(code: 4002, reason: "done"))
  }

  /// The end of stream arrives while the server's close still waits for the application: the
  /// close (echoed as a courtesy) is the outcome, not the end of stream.
  @Test func anEndOfStreamBehindAHeldCloseYieldsTheServersCode() throws {
    var (machine, random) = openMachine()
    _ = machine.received(
      [0x81, 0x01, 0x61, 0x88, 0x06, 0x0F, 0xA2] + Array("done".utf8), maskingKeys: &random)
    let end = machine.fail(.closed(code: nil, reason: "the server closed the TCP connection"))
    #expect(end.last == .finished(.closed(code: 4002, reason: "done")))
    #expect(machine.outcome == .closed(code: 4002, reason: "done"))
    #expect(machine.messagesConsumed(maskingKeys: &random).isEmpty)
    #expect(machine.outcome == .closed(code: 4002, reason: "done"))
  }

  /// A bad frame's failure is the outcome once the application took the message before it,
  /// whatever the socket does next; its close frame is among the outputs of that same call.
  @Test func aFailureOutcomeIsNotReplacedByALaterEnd() throws {
    var (machine, random) = openMachine()
    // "before", then a ping with 126 bytes (a control frame longer than 125: 1002).
    _ = machine.received(
      [0x81, 0x06] + Array("before".utf8) + [0x89, 0x7E, 0x00, 0x7E]
        + [UInt8](repeating: 0x78, count: 126), maskingKeys: &random)
    let end = machine.messagesConsumed(maskingKeys: &random)
    guard case .close(let code, _) = try serverView(end).first, case .finished(let error) = end.last
    else {
      Issue.record("\(end)")
      return
    }
    #expect(code == 1002)
    #expect(machine.outcome == error)
    #expect(machine.fail(.idleTimedOut).isEmpty)
    #expect(machine.close(maskingKeys: &random).isEmpty)
    #expect(machine.outcome == error)
    #expect(machine.closeSent?.code == 1002)
  }

  @Test func pingsAndPongsAreReportedWithTheirPayloads() throws {
    var (machine, random) = openMachine()
    let outputs = machine.received([0x89, 0x01, 1, 0x8A, 0x01, 2], maskingKeys: &random)
    #expect(
      outputs.filter { if case .write = $0 { false } else { true } } == [.ping([1]), .pong([2])])
  }

  @Test func theChosenSubprotocolIsKept() {
    var random = SeededRandom(seed: 4)
    let handshake = WebSocketHandshake(
      host: "h", port: 80, path: "/", subprotocols: ["a", "b"], random: &random)
    var machine = WebSocketConnectionMachine(handshake: handshake)
    let answer =
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Protocol: b\r\n"
      + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: handshake.key))\r\n\r\n"
    #expect(machine.received(Array(answer.utf8), maskingKeys: &random) == [.opened])
    #expect(machine.subprotocol == "b")
  }

  @Test func garbageHandshakeFinishesWithATypedError() {
    var random = SeededRandom(seed: 1)
    var machine = WebSocketConnectionMachine(
      handshake: WebSocketHandshake(host: "h", port: 80, path: "/", random: &random))
    let outputs = machine.received(Array("garbage\r\n".utf8), maskingKeys: &random)
    guard case .finished(.handshakeFailed) = outputs.first else {
      Issue.record("\(outputs)")
      return
    }
    #expect(machine.state == .closed)
  }
}
