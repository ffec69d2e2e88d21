/// The client side of one WebSocket connection as a pure state machine: handshaking → open →
/// closing → closed. It owns the handshake check and the frame decoder; its owner (the socket
/// I/O in ``POSIXWebSocketTransport``) feeds it bytes and events and performs what it returns.
///
/// It answers pings with pongs carrying the same bytes, echoes a server's close frame, and on
/// a protocol error sends a close frame with the error's code (1002, 1007 or 1009) and
/// finishes with that error. Exactly one ``Output/finished(_:)`` is ever returned.
///
/// > Important: Messages come before the end. When a server's close frame or a bad frame
/// > follows messages the application has not taken yet, the machine stays open and holds
/// > that end (``holdsEnd``) until the owner calls ``messagesConsumed(maskingKeys:)``: the
/// > application receives every valid message that preceded it, and may still answer them,
/// > before the close is echoed or the connection failed (RFC 6455 §5.5.1 lets an endpoint
/// > finish its message before its close frame). The owner bounds the hold with a deadline.
///
/// With permessage-deflate settled, the machine holds zlib's streams (classes): a copy shares
/// them, so only one copy may go on sending and receiving.
///
/// - Complexity: amortized O(bytes) per call.
/// - Note: Isolation: a value type; the owner confines it to its lock.
/// - Note: Allocations: the decoder's buffer and one array per frame written; with
///   permessage-deflate, zlib's state once (≈ 300 KiB) and one array per compressed message.
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
    /// A ping arrived with this payload (its pong is the `write` before it).
    case ping([UInt8])
    /// A pong arrived with this payload: the oldest outstanding ping is answered.
    case pong([UInt8])
    /// The connection is over (a close, an error or a timeout): close the socket.
    case finished(WebSocketError)

    /// Whether this is ``finished(_:)``.
    public var isFinished: Bool {
      if case .finished = self { true } else { false }
    }
  }

  /// A close frame sent or received: its code (nil: the frame had none) and reason.
  public struct CloseFrame: Sendable, Equatable {
    public var code: UInt16?
    public var reason: String
  }

  /// An end decoded after messages the application has not taken yet.
  private enum End: Sendable {
    case close(code: UInt16?, reason: String)
    case failure(WebSocketError)
  }

  public private(set) var state: State = .handshaking
  public let handshake: WebSocketHandshake
  /// The subprotocol the server chose (once open), nil for none.
  public private(set) var subprotocol: String?
  /// What permessage-deflate settled (once open), nil when it is not in use.
  public private(set) var deflate: WebSocketDeflateParameters?
  /// Compresses sent messages once permessage-deflate is settled.
  private var deflater: Deflater?
  /// The close frame the client sent, if it sent one.
  public private(set) var closeSent: CloseFrame?
  /// The server's close frame, if one arrived.
  public private(set) var closeReceived: CloseFrame?
  /// How the connection ended: the error of the one ``Output/finished(_:)`` returned, nil
  /// until then. The first end wins: a later ``fail(_:)`` (the socket's end of stream after
  /// the server's close frame, a read error, a timeout) changes nothing. The owner records
  /// it under the same lock as the call that returned it, so nothing that sees the state
  /// `closed` can see the connection end without it.
  public private(set) var outcome: WebSocketError?
  private var handshakeBuffer: [UInt8] = []
  private var decoder: WebSocketDecoder
  private var heldEnd: End?
  /// A message was output since the owner last called `messagesConsumed`.
  private var unconsumed = false

  /// Starts a connection whose request is `handshake.request` (the owner writes it).
  public init(handshake: WebSocketHandshake, maxMessageSize: Int = 16 << 20) {
    self.handshake = handshake
    decoder = WebSocketDecoder(role: .client, maxMessageSize: maxMessageSize)
  }

  /// Whether a server close or a failure waits for the application to take its messages.
  public var holdsEnd: Bool { heldEnd != nil }

  /// Bytes read from the socket.
  public mutating func received(
    _ bytes: some Collection<UInt8>, maskingKeys: inout some RandomNumberGenerator
  ) -> [Output] {
    switch state {
    case .closed: return []
    case .handshaking:
      handshakeBuffer += bytes
      do throws(WebSocketError) {
        guard let accepted = try handshake.accept(handshakeBuffer) else { return [] }
        if let settled = accepted.deflate {
          guard
            let deflater = Deflater(
              windowBits: settled.clientMaxWindowBits,
              noContextTakeover: settled.clientNoContextTakeover),
            let inflater = Inflater(noContextTakeover: settled.serverNoContextTakeover)
          else { throw WebSocketError.handshakeFailed("permessage-deflate: zlib did not start") }
          self.deflater = deflater
          decoder.enableDeflate(inflater)
          deflate = settled
        }
        state = .open
        subprotocol = accepted.subprotocol
        decoder.append(handshakeBuffer[accepted.headerLength...])
        handshakeBuffer = []
        return [.opened] + drain(&maskingKeys)
      } catch {
        return [conclude(error)]
      }
    case .open, .closing:
      decoder.append(bytes)
      return drain(&maskingKeys)
    }
  }

  /// As ``received(_:maskingKeys:)`` for the first `count` bytes of a reader's buffer, which
  /// the decoder may keep instead of copying: `bytes` then comes back holding another array
  /// of unspecified contents (the decoder's previous buffer) for the next read.
  ///
  /// - Complexity: O(bytes decoded); no copy of frames that arrive whole while nothing is
  ///   buffered.
  mutating func received(
    swapping bytes: inout [UInt8], count: Int, maskingKeys: inout some RandomNumberGenerator
  ) -> [Output] {
    guard state == .open || state == .closing else {
      return received(bytes[..<count], maskingKeys: &maskingKeys)
    }
    decoder.append(swapping: &bytes, count: count)
    return drain(&maskingKeys)
  }

  /// Reads the rest of a large message arriving in parts straight into its storage
  /// (``WebSocketDecoder/readIntoSink(limit:_:)``): nil, without calling `read`, when none is
  /// arriving; otherwise `read`'s count and the outputs (the message once whole).
  ///
  /// - Complexity: O(bytes read).
  mutating func receivedIntoMessage(
    limit: Int, maskingKeys: inout some RandomNumberGenerator,
    _ read: (UnsafeMutableRawBufferPointer) -> Int
  ) -> (count: Int, outputs: [Output])? {
    guard state == .open || state == .closing,
      let count = decoder.readIntoSink(limit: limit, read)
    else { return nil }
    return (count, count > 0 ? drain(&maskingKeys) : [])
  }

  /// The application has taken every message output so far (it asks for the next one): an
  /// end held for them happens now.
  public mutating func messagesConsumed(
    maskingKeys: inout some RandomNumberGenerator
  ) -> [Output] {
    unconsumed = false
    guard let end = heldEnd else { return [] }
    heldEnd = nil
    return finish(end, &maskingKeys)
  }

  private mutating func drain(_ maskingKeys: inout some RandomNumberGenerator) -> [Output] {
    var out: [Output] = []
    while state != .closed && heldEnd == nil {
      let end: End
      do {
        guard let event = try decoder.next() else { break }
        switch event {
        case .message(let message):
          out.append(.message(message))
          unconsumed = true
          continue
        case .ping(let payload):
          if state == .open { out.append(.write(frame(.pong, payload, &maskingKeys))) }
          out.append(.ping(payload))
          continue
        case .pong(let payload):
          out.append(.pong(payload))
          continue
        case .close(let code, let reason):
          closeReceived = CloseFrame(code: code, reason: reason)
          end = .close(code: code, reason: reason)
        }
      } catch {
        end = .failure(error)
      }
      if state == .open && unconsumed {
        heldEnd = end
      } else {
        out += finish(end, &maskingKeys)
      }
    }
    return out
  }

  /// Ends the connection: echoes a server's close or sends the failure's close frame (only
  /// while open: after its own close frame a client sends nothing more).
  private mutating func finish(
    _ end: End, _ maskingKeys: inout some RandomNumberGenerator
  ) -> [Output] {
    var out: [Output] = []
    let error: WebSocketError
    let reply: CloseFrame
    switch end {
    case .close(let code, let reason):
      reply = CloseFrame(code: code, reason: "")
      error = .closed(code: code, reason: reason)
    case .failure(let failure):
      reply = CloseFrame(code: failure.closeCode, reason: failure.description)
      error = failure
    }
    if state == .open {
      closeSent = reply
      out.append(
        .write(
          frame(
            .close, WebSocketFrameEncoder.closePayload(code: reply.code, reason: reply.reason),
            &maskingKeys)))
    }
    out.append(conclude(error))
    return out
  }

  /// The one ``Output/finished(_:)``: closed, with `error` as the ``outcome``.
  private mutating func conclude(_ error: WebSocketError) -> Output {
    state = .closed
    outcome = error
    return .finished(error)
  }

  /// The bytes for one message, in frames of at most `fragmentSize` payload bytes; while open
  /// (also while an end is held).
  ///
  /// - Throws: ``WebSocketError/closed(code:reason:)`` when not open.
  public func send(
    _ message: RealtimeMessage, fragmentSize: Int = .max,
    maskingKeys: inout some RandomNumberGenerator
  ) throws(WebSocketError) -> [UInt8] {
    guard state == .open else { throw .closed(code: nil, reason: "not open (\(state))") }
    return WebSocketFrameEncoder.encodeMessage(
      message, fragmentSize: fragmentSize, maskingKeys: &maskingKeys, masked: true,
      deflater: deflater)
  }

  /// As ``send(_:fragmentSize:maskingKeys:)``, for a message the owner writes in chunks
  /// instead of as one array: its frames are described (the masking keys drawn now, in order)
  /// and made chunk by chunk as they are written (``WebSocketOutgoingMessage``). nil with
  /// permessage-deflate: a compressed message is framed whole by `send`.
  ///
  /// - Throws: ``WebSocketError/closed(code:reason:)`` when not open.
  func outgoing(
    _ message: RealtimeMessage, fragmentSize: Int = .max,
    maskingKeys: inout some RandomNumberGenerator
  ) throws(WebSocketError) -> WebSocketOutgoingMessage? {
    guard state == .open else { throw .closed(code: nil, reason: "not open (\(state))") }
    guard deflater == nil else { return nil }
    return WebSocketOutgoingMessage(
      message, fragmentSize: fragmentSize, maskingKeys: &maskingKeys)
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
  /// for the server's) or abandons a connection still handshaking. With an end held, that
  /// end happens instead (the server's close is echoed; a bad frame fails the connection).
  public mutating func close(
    code: UInt16 = 1000, reason: String = "", maskingKeys: inout some RandomNumberGenerator
  ) -> [Output] {
    if let end = heldEnd {
      heldEnd = nil
      return finish(end, &maskingKeys)
    }
    switch state {
    case .open:
      state = .closing
      closeSent = CloseFrame(code: code, reason: reason)
      return [
        .write(
          frame(
            .close, WebSocketFrameEncoder.closePayload(code: code, reason: reason), &maskingKeys))
      ]
    case .handshaking:
      return [conclude(.closed(code: code, reason: reason))]
    case .closing, .closed: return []
    }
  }

  /// The socket reached end of stream, failed, or a timeout fired: finishes with `error`
  /// unless already finished. A held end is the better news and finishes instead.
  public mutating func fail(_ error: WebSocketError) -> [Output] {
    guard state != .closed else { return [] }
    if let end = heldEnd {
      heldEnd = nil
      // The socket is gone or timed out: a close frame written now is a courtesy at most.
      var keys = MaskingKeySource()
      return finish(end, &keys)
    }
    return [conclude(error)]
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
