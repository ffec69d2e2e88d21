/// The client side of one WebSocket connection as a pure state machine: handshaking → open →
/// closing → closed. It owns the handshake check and the frame decoder; its owner (the socket
/// I/O in ``POSIXWebSocketTransport``) feeds it bytes and events and performs what it returns.
///
/// It answers pings with pongs carrying the same bytes, echoes a server's close frame, and on
/// a protocol error sends a close frame with the error's code (1002, 1007 or 1009) and
/// finishes with that error. Exactly one ``Output/finished(_:)`` is ever returned.
///
/// - Complexity: amortized O(bytes) per call.
/// - Note: Isolation: a value type; the owner confines it to its lock.
/// - Note: Allocations: the decoder's buffer and one array per frame written.
public struct WebSocketConnectionMachine: Sendable {
  /// Where the connection is.
  public enum State: Sendable, Equatable {
    case handshaking, open, closing, closed
  }

  /// What the owner must do.
  public enum Output: Sendable, Equatable {
    /// The opening handshake succeeded.
    case opened
    /// Write these bytes to the socket, in order.
    case write([UInt8])
    /// Deliver this message to the reader.
    case message(RealtimeMessage)
    /// A pong arrived: the oldest outstanding ping is answered.
    case pong
    /// The connection is over (a close, an error or a timeout): close the socket.
    case finished(WebSocketError)
  }

  public private(set) var state: State = .handshaking
  public let handshake: WebSocketHandshake
  private var handshakeBuffer: [UInt8] = []
  private var decoder: WebSocketDecoder

  /// Starts a connection whose request is `handshake.request` (the owner writes it).
  public init(handshake: WebSocketHandshake, maxMessageSize: Int = 16 << 20) {
    self.handshake = handshake
    decoder = WebSocketDecoder(role: .client, maxMessageSize: maxMessageSize)
  }

  /// Bytes read from the socket.
  public mutating func received(
    _ bytes: some Collection<UInt8>, maskingKeys: inout some RandomNumberGenerator
  ) -> [Output] {
    switch state {
    case .closed: return []
    case .handshaking:
      handshakeBuffer += bytes
      do {
        guard let used = try handshake.parseResponse(handshakeBuffer) else { return [] }
        state = .open
        decoder.append(handshakeBuffer[used...])
        handshakeBuffer = []
        return [.opened] + drain(&maskingKeys)
      } catch {
        state = .closed
        return [.finished(error)]
      }
    case .open, .closing:
      decoder.append(bytes)
      return drain(&maskingKeys)
    }
  }

  private mutating func drain(_ maskingKeys: inout some RandomNumberGenerator) -> [Output] {
    var out: [Output] = []
    while state != .closed {
      do {
        guard let event = try decoder.next() else { break }
        switch event {
        case .message(let message): out.append(.message(message))
        case .ping(let payload):
          if state == .open { out.append(.write(frame(.pong, payload, &maskingKeys))) }
        case .pong: out.append(.pong)
        case .close(let code, let reason):
          if state == .open {
            out.append(
              .write(
                frame(
                  .close, WebSocketFrameEncoder.closePayload(code: code, reason: ""),
                  &maskingKeys)))
          }
          state = .closed
          out.append(.finished(.closed(code: code, reason: reason)))
        }
      } catch {
        let payload = WebSocketFrameEncoder.closePayload(
          code: error.closeCode, reason: error.description)
        out.append(.write(frame(.close, payload, &maskingKeys)))
        state = .closed
        out.append(.finished(error))
      }
    }
    return out
  }

  /// The bytes for one message; only while open.
  ///
  /// - Throws: ``WebSocketError/closed(code:reason:)`` when not open.
  public func send(
    _ message: RealtimeMessage, maskingKeys: inout some RandomNumberGenerator
  ) throws(WebSocketError) -> [UInt8] {
    guard state == .open else { throw .closed(code: nil, reason: "not open (\(state))") }
    return WebSocketFrameEncoder.encodeMessage(message, maskingKeys: &maskingKeys)
  }

  /// The bytes for one ping; only while open.
  ///
  /// - Throws: ``WebSocketError/closed(code:reason:)`` when not open.
  public func ping(
    _ payload: [UInt8] = [], maskingKeys: inout some RandomNumberGenerator
  ) throws(WebSocketError) -> [UInt8] {
    guard state == .open else { throw .closed(code: nil, reason: "not open (\(state))") }
    return frame(.ping, payload, &maskingKeys)
  }

  /// The client starts the closing handshake (open → closing: write a close frame and wait
  /// for the server's) or abandons a connection still handshaking.
  public mutating func close(
    code: UInt16 = 1000, reason: String = "", maskingKeys: inout some RandomNumberGenerator
  ) -> [Output] {
    switch state {
    case .open:
      state = .closing
      return [
        .write(
          frame(
            .close, WebSocketFrameEncoder.closePayload(code: code, reason: reason), &maskingKeys))
      ]
    case .handshaking:
      state = .closed
      return [.finished(.closed(code: code, reason: reason))]
    case .closing, .closed: return []
    }
  }

  /// The socket reached end of stream, failed, or a timeout fired: finishes with `error`
  /// unless already finished.
  public mutating func fail(_ error: WebSocketError) -> [Output] {
    guard state != .closed else { return [] }
    state = .closed
    return [.finished(error)]
  }

  private func frame(
    _ opcode: WebSocketOpcode, _ payload: [UInt8],
    _ maskingKeys: inout some RandomNumberGenerator
  ) -> [UInt8] {
    WebSocketFrameEncoder.encode(
      opcode: opcode, payload: payload,
      maskingKey: UInt32.random(in: .min ... .max, using: &maskingKeys))
  }
}
