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
