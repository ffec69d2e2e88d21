import Foundation

/// What the decoder found in the bytes so far.
///
/// - Complexity: O(1) to copy.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the payload.
public enum WebSocketEvent: Sendable, Equatable {
  /// A whole message (its fragments joined); text is validated UTF-8.
  case message(RealtimeMessage)
  /// A ping with its application data; a client answers with a pong carrying the same bytes.
  case ping([UInt8])
  /// A pong with its application data.
  case pong([UInt8])
  /// A close frame: its status code (nil when the frame had no payload) and reason.
  case close(code: UInt16?, reason: String)
}

/// Incremental RFC 6455 decoder: a pure value-type state machine. Feed it bytes in chunks
/// of any size with ``append(_:)`` and take events with ``next()`` until it returns nil.
///
/// It checks everything RFC 6455 asks of a receiver: reserved bits clear, known opcodes,
/// control frames ≤ 125 bytes and never fragmented, masking by role (a client rejects masked
/// frames, a server requires them), continuations only inside a fragmented message and no new
/// message inside one (both from the header alone), minimal length encodings' 64-bit top bit
/// clear, close payloads that are empty or a valid code plus UTF-8 reason, text that is valid
/// UTF-8 — checked as bytes arrive, across fragments and inside an incomplete frame, so the
/// first invalid byte fails the message (RFC 6455 §8.1) — and the message size limit — checked against a frame's declared length before its payload is buffered,
/// so an oversize frame fails after its header, not after megabytes. After an error the
/// decoder stays failed and throws the same error again.
///
/// - Complexity: amortized O(bytes) over all calls; each byte is copied at most twice
///   (into the buffer, into the message; once for a large message arriving in parts, and
///   once for a frame that arrives whole in a read handed over by the transport, which the
///   decoder keeps instead of copying).
/// - Note: Isolation: a value type; the owner confines it (the live connection to its lock).
/// - Note: Allocations: the buffer (grows to the largest frame seen, except that a frame of
///   128 KiB or more arriving in parts goes straight into its message's `Data`) and one
///   array per event.
public struct WebSocketDecoder: Sendable {
  /// Which side of the connection decodes: a client reads a server's unmasked frames.
  public enum Role: Sendable { case client, server }

  /// The limit for one message, all fragments together (and for one frame).
  public let maxMessageSize: Int
  public let role: Role

  /// Received bytes: those at `readIndex..<end` are not decoded yet; the array is kept
  /// initialized past `end` (its count is its usable size), so a read can land in it and it
  /// can trade places with the reader's own buffer (``append(swapping:count:)``).
  private var buffer: [UInt8] = []
  private var readIndex = 0
  private var end = 0
  /// The opcode and bytes of a fragmented message in progress (inflated when compressed).
  private var partial: Partial?

  /// A fragmented message in progress: a compressed one's inflated bytes so far in `bytes`,
  /// an uncompressed one's in `data` (a `Data` grows with `realloc`, which moves a large
  /// allocation's pages instead of copying them as an array's doubling does, and becomes the
  /// binary message without a copy).
  private struct Partial {
    var opcode: WebSocketOpcode
    var compressed: Bool
    var bytes: [UInt8] = []
    var data = Data()

    /// The message's bytes so far.
    var count: Int { compressed ? bytes.count : data.count }
  }
  /// permessage-deflate, once negotiated: RSV1 marks a compressed message.
  private var inflater: Inflater?
  /// UTF-8 validation across the fragments of the text message in progress.
  private var utf8 = UTF8Validator()
  /// Payload bytes of the (incomplete) frame at `readIndex` already validated as text.
  private var validatedInFrame = 0
  private var failure: WebSocketError?
  /// A large unfragmented message (one frame of at least ``sinkThreshold`` payload bytes,
  /// unmasked and uncompressed) still arriving: `append` copies its bytes straight into the
  /// message's own storage, so they are copied once, not into the buffer and then out, and
  /// the buffer never grows to the message's size; ``readIntoSink(limit:_:)`` lets the
  /// transport read them there without any copy.
  private var sink: Sink?

  private struct Sink {
    var opcode: WebSocketOpcode
    /// The message's payload, all `bytes.count` of it allocated at once and not initialized
    /// (``uninitializedData(count:)``), of which the first `filled` have arrived: it becomes
    /// the message only once every byte has.
    var bytes: Data
    var filled: Int
    var length: Int { bytes.count }
  }

  /// `count` bytes of storage for a sink, not zeroed first (`Data(count:)` zeroes them: 1.7 ms
  /// against 0.85 ms to fill 16 MiB of reused memory here); every byte is written before the
  /// `Data` leaves the decoder.
  private static func uninitializedData(count: Int) -> Data {
    guard let storage = malloc(count) else { return Data(count: count) }
    return Data(bytesNoCopy: storage, count: count, deallocator: .free)
  }

  /// Frames whose payload is at least this long go to a ``Sink`` when they arrive in parts.
  static let sinkThreshold = 128 << 10

  /// Makes a decoder; `maxMessageSize` defaults to 16 MiB.
  public init(role: Role = .client, maxMessageSize: Int = 16 << 20) {
    self.role = role
    self.maxMessageSize = maxMessageSize
  }

  /// Accepts compressed messages (RSV1 on a message's first frame) and inflates them.
  mutating func enableDeflate(_ inflater: Inflater) { self.inflater = inflater }

  /// Bytes buffered but not yet decoded.
  public var bufferedCount: Int { end - readIndex }

  /// Adds bytes read from the socket.
  public mutating func append(_ bytes: some Sequence<UInt8>) {
    if let done = bytes.withContiguousStorageIfAvailable({ appendBytes(UnsafeRawBufferPointer($0)) }
    ) {
      return done
    }
    Array(bytes).withUnsafeBytes { appendBytes($0) }
  }

  /// Adds bytes read from the socket: into the sink while a large message arrives in parts,
  /// the rest into the buffer.
  private mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
    let taken = sink == nil ? 0 : fill(bytes)
    appendToBuffer(UnsafeRawBufferPointer(rebasing: bytes[taken...]))
  }

  /// Adds the first `count` bytes of `bytes` (a reader's buffer). With nothing buffered and no
  /// message arriving in parts, the two arrays trade places instead of the bytes being copied:
  /// frames that arrive whole are decoded where they were read, and `bytes` comes back holding
  /// the decoder's previous buffer (at least as large as it was, its contents unspecified),
  /// ready for the next read. Otherwise the bytes are copied, as by ``append(_:)``.
  ///
  /// - Complexity: O(1) when the arrays trade places, O(count) otherwise.
  mutating func append(swapping bytes: inout [UInt8], count: Int) {
    precondition(count >= 0 && count <= bytes.count, "count beyond the reader's buffer")
    if sink == nil && readIndex == end {
      swap(&buffer, &bytes)
      readIndex = 0
      end = count
      return
    }
    bytes.withUnsafeBytes { appendBytes(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
  }

  private mutating func appendToBuffer(_ bytes: UnsafeRawBufferPointer) {
    if readIndex > 0 && (readIndex >= end / 2 || end + bytes.count > buffer.count) {
      // Decoded bytes at the front: move the rest down (at most half the buffer, or to make
      // room instead of growing).
      let unread = end - readIndex
      if unread > 0 {
        buffer.withUnsafeMutableBytes { all in
          all.baseAddress!.copyMemory(from: all.baseAddress! + readIndex, byteCount: unread)
        }
      }
      readIndex = 0
      end = unread
    }
    ensureSize(end + bytes.count)
    guard bytes.count > 0 else { return }
    buffer.withUnsafeMutableBytes { all in
      (all.baseAddress! + end).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    }
    end += bytes.count
  }

  /// Grows the buffer to at least `size` bytes (doubling, so appends stay amortized O(1)).
  private mutating func ensureSize(_ size: Int) {
    guard size > buffer.count else { return }
    buffer.append(
      contentsOf: repeatElement(
        0, count: max(size, min(2 * buffer.count, size + (1 << 20))) - buffer.count))
  }

  /// Copies the first of `bytes` into the sink, up to its end; text is validated as it
  /// arrives (an invalid byte fails the decoder: the next `next()` throws). Returns how many
  /// bytes it took.
  private mutating func fill(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard var current = sink else { return 0 }
    sink = nil  // `current` holds the only reference: written in place
    let count = min(bytes.count, current.length - current.filled)
    guard count > 0 else {
      sink = current
      return 0
    }
    let range = UnsafeRawBufferPointer(rebasing: bytes[..<count])
    let start = current.filled
    current.bytes.withUnsafeMutableBytes { storage in
      (storage.baseAddress! + start).copyMemory(from: range.baseAddress!, byteCount: count)
    }
    current.filled += count
    if current.opcode == .text, failure == nil, utf8.validate(range) != nil {
      failure = .invalidUTF8
    }
    sink = current
    return count
  }

  /// Lets the transport read the rest of a large message arriving in parts straight into its
  /// storage, with no copy: calls `read` with the space its next bytes go to (at most `limit`
  /// bytes, never past the message's end) and counts what `read` returns (a read's count;
  /// zero or less is passed back and counts nothing). Text is validated as it arrives, as by
  /// ``append(_:)``. nil, without calling `read`, when no such message is arriving.
  ///
  /// - Complexity: O(bytes read) for text (validated), O(1) otherwise.
  mutating func readIntoSink(
    limit: Int, _ read: (UnsafeMutableRawBufferPointer) -> Int
  ) -> Int? {
    guard var current = sink, current.filled < current.length, failure == nil else {
      return nil
    }
    sink = nil  // `current` holds the only reference: written in place
    let start = current.filled
    let space = min(limit, current.length - start)
    let count = current.bytes.withUnsafeMutableBytes { storage in
      read(UnsafeMutableRawBufferPointer(rebasing: storage[start..<(start + space)]))
    }
    if count > 0 {
      current.filled += min(count, space)
      if current.opcode == .text {
        let bad = current.bytes.withUnsafeBytes {
          utf8.validate(UnsafeRawBufferPointer(rebasing: $0[start..<current.filled]))
        }
        if bad != nil { failure = .invalidUTF8 }
      }
    }
    sink = current
    return count
  }

  /// The next event, or nil when the buffered bytes do not yet hold a whole frame.
  ///
  /// - Throws: ``WebSocketError/protocolViolation(_:)``, ``WebSocketError/invalidUTF8`` or
  ///   ``WebSocketError/messageTooLarge(limit:)``; then every later call throws it too.
  public mutating func next() throws(WebSocketError) -> WebSocketEvent? {
    if let failure { throw failure }
    do throws(WebSocketError) {
      if let current = sink {
        guard current.filled == current.length else { return nil }
        sink = nil
        guard current.opcode == .text else { return .message(.data(current.bytes)) }
        guard utf8.isComplete else { throw .invalidUTF8 }
        return .message(.text(UTF8Validator.string(validated: current.bytes)))
      }
      while true {
        guard let frame = try parseFrame() else { return nil }
        if let event = try handle(frame) { return event }
      }
    } catch {
      failure = error
      throw error
    }
  }

  private struct Frame {
    var fin: Bool
    var opcode: WebSocketOpcode
    var payload: ArraySlice<UInt8>
    /// The frame belongs to a compressed message.
    var compressed: Bool
  }

  private mutating func parseFrame() throws(WebSocketError) -> Frame? {
    let available = end - readIndex
    guard available >= 2 else { return nil }
    let b0 = buffer[readIndex]
    let b1 = buffer[readIndex + 1]
    let rsv1 = b0 & 0x40 != 0
    guard b0 & 0x30 == 0, !rsv1 || inflater != nil else {
      throw .protocolViolation("reserved bits set (no extension)")
    }
    guard let opcode = WebSocketOpcode(rawValue: b0 & 0x0F) else {
      throw .protocolViolation("unknown opcode \(b0 & 0x0F)")
    }
    let fin = b0 & 0x80 != 0
    let masked = b1 & 0x80 != 0
    switch (role, masked) {
    case (.client, true): throw .protocolViolation("a server frame is masked")
    case (.server, false): throw .protocolViolation("a client frame is not masked")
    default: break
    }
    // Sequence errors are known from the header alone: fail before any payload arrives.
    switch opcode {
    case .continuation where partial == nil:
      throw .protocolViolation("continuation frame outside a fragmented message")
    case .text where partial != nil, .binary where partial != nil:
      throw .protocolViolation("new message inside a fragmented message")
    default: break
    }
    if rsv1 && opcode != .text && opcode != .binary {
      throw .protocolViolation("RSV1 on a \(opcode) frame: only a message's first frame may set it")
    }
    let compressed = rsv1 || (opcode == .continuation && partial?.compressed == true)
    var headerLength = 2
    var length = UInt64(b1 & 0x7F)
    if opcode.isControl {
      guard fin else { throw .protocolViolation("fragmented control frame") }
      guard length <= 125 else { throw .protocolViolation("control frame longer than 125 bytes") }
    }
    if length == 126 {
      guard available >= 4 else { return nil }
      length = UInt64(buffer[readIndex + 2]) << 8 | UInt64(buffer[readIndex + 3])
      headerLength = 4
    } else if length == 127 {
      guard available >= 10 else { return nil }
      length = 0
      for index in 0..<8 { length = length << 8 | UInt64(buffer[readIndex + 2 + index]) }
      guard length >> 63 == 0 else { throw .protocolViolation("64-bit length with top bit set") }
      headerLength = 10
    }
    let already = partial?.count ?? 0
    guard length <= UInt64(maxMessageSize - already) else {
      throw .messageTooLarge(limit: maxMessageSize)
    }
    let payloadLength = Int(length)
    let keyLength = masked ? 4 : 0
    let payloadStart = readIndex + headerLength + keyLength
    let payloadEnd = payloadStart + payloadLength
    // Compressed text is validated as it is inflated (`inflate`), not on the wire.
    let isText =
      !compressed && (opcode == .text || (opcode == .continuation && partial?.opcode == .text))
    if opcode == .text && validatedInFrame == 0 { utf8 = UTF8Validator() }
    guard available >= headerLength + keyLength + payloadLength else {
      let sinks =
        fin && !masked && !compressed && partial == nil && opcode != .continuation
        && !opcode.isControl && payloadLength >= Self.sinkThreshold
      // Room for the whole frame at once: a large one arriving in many reads is then never
      // copied by the buffer's growth.
      if !sinks { ensureSize(payloadEnd) }
      // Fail fast: the text of an incomplete frame is validated as it arrives (a client's
      // frames from a server are unmasked, so the bytes are final).
      if isText && !masked && end > payloadStart {
        try validateText(payloadStart + validatedInFrame..<end)
        validatedInFrame = end - payloadStart
      }
      if sinks {
        // A large message arriving in parts: the rest goes straight into its own storage.
        var bytes = Self.uninitializedData(count: payloadLength)
        let first = end - payloadStart
        bytes.withUnsafeMutableBytes { storage in
          buffer.withUnsafeBytes { from in
            storage.baseAddress!.copyMemory(
              from: from.baseAddress! + payloadStart, byteCount: first)
          }
        }
        sink = Sink(opcode: opcode, bytes: bytes, filled: first)
        validatedInFrame = 0
        readIndex = end
      }
      return nil
    }
    if masked {
      let keyStart = readIndex + headerLength
      let key =
        UInt32(buffer[keyStart]) << 24 | UInt32(buffer[keyStart + 1]) << 16
        | UInt32(buffer[keyStart + 2]) << 8 | UInt32(buffer[keyStart + 3])
      buffer.withUnsafeMutableBytes { bytes in
        WebSocketMasking.apply(
          key: key, to: UnsafeMutableRawBufferPointer(rebasing: bytes[payloadStart..<payloadEnd]))
      }
    }
    if isText {
      try validateText(payloadStart + validatedInFrame..<payloadEnd)
      if fin && !utf8.isComplete { throw .invalidUTF8 }
    }
    validatedInFrame = 0
    let payload = buffer[payloadStart..<payloadEnd]
    readIndex = payloadEnd
    return Frame(fin: fin, opcode: opcode, payload: payload, compressed: compressed)
  }

  /// Validates buffered text bytes after those validated before.
  private mutating func validateText(_ range: Range<Int>) throws(WebSocketError) {
    guard !range.isEmpty else { return }
    var validator = utf8
    let bad = buffer.withUnsafeBytes {
      validator.validate(UnsafeRawBufferPointer(rebasing: $0[range]))
    }
    utf8 = validator
    if bad != nil { throw .invalidUTF8 }
  }

  private mutating func handle(_ frame: Frame) throws(WebSocketError) -> WebSocketEvent? {
    switch frame.opcode {
    case .ping: return .ping(Array(frame.payload))
    case .pong: return .pong(Array(frame.payload))
    case .close: return try Self.parseClose(frame.payload)
    case .continuation:
      // Taken out of `partial` first, so appending does not copy the message so far.
      guard var message = partial else {
        throw .protocolViolation("continuation frame outside a fragmented message")
      }
      partial = nil
      if message.compressed {
        try inflate(
          frame.payload, into: &message.bytes, text: message.opcode == .text, end: frame.fin)
      } else {
        frame.payload.withUnsafeBytes { message.data.append(contentsOf: $0) }
      }
      guard frame.fin else {
        partial = message
        return nil
      }
      guard !message.compressed else { return Self.message(message.opcode, message.bytes[...]) }
      if message.opcode == .binary { return .message(.data(message.data)) }
      return .message(.text(UTF8Validator.string(validated: message.data)))
    case .text, .binary:
      if frame.compressed {
        var bytes: [UInt8] = []
        try inflate(frame.payload, into: &bytes, text: frame.opcode == .text, end: frame.fin)
        guard frame.fin else {
          partial = Partial(opcode: frame.opcode, compressed: true, bytes: bytes)
          return nil
        }
        return Self.message(frame.opcode, bytes[...])
      }
      guard frame.fin else {
        partial = Partial(
          opcode: frame.opcode, compressed: false,
          data: frame.payload.withUnsafeBytes { Data($0) })
        return nil
      }
      return Self.message(frame.opcode, frame.payload)
    }
  }

  /// Inflates one frame of a compressed message into `bytes` (the message so far), bounded by
  /// the message size limit; at the message's end also the `00 00 FF FF` RFC 7692 §7.2.2 has
  /// the sender remove. Text is validated as it comes out.
  private mutating func inflate(
    _ payload: ArraySlice<UInt8>, into bytes: inout [UInt8], text: Bool, end: Bool
  ) throws(WebSocketError) {
    guard let inflater else { throw .protocolViolation("a compressed frame without deflate") }
    let before = bytes.count
    var failure: WebSocketError?
    let limit = maxMessageSize
    payload.withUnsafeBytes { input in
      do {
        try inflater.inflate(input, into: &bytes, limit: limit)
        if end {
          let tail: [UInt8] = [0, 0, 0xFF, 0xFF]
          try tail.withUnsafeBytes { try inflater.inflate($0, into: &bytes, limit: limit) }
        }
      } catch let error as WebSocketError {
        failure = error
      } catch {
        failure = .protocolViolation("\(error)")
      }
    }
    if let failure { throw failure }
    if end { inflater.messageEnded() }
    guard text else { return }
    var validator = utf8
    let bad = bytes.withUnsafeBytes {
      validator.validate(UnsafeRawBufferPointer(rebasing: $0[before...]))
    }
    utf8 = validator
    if bad != nil || (end && !utf8.isComplete) { throw .invalidUTF8 }
  }

  /// A whole message; text was validated as it arrived.
  private static func message(
    _ opcode: WebSocketOpcode, _ bytes: ArraySlice<UInt8>
  ) -> WebSocketEvent {
    if opcode == .binary { return .message(.data(Data(bytes))) }
    return .message(.text(UTF8Validator.string(validated: bytes)))
  }

  /// The bytes as a String, or ``WebSocketError/invalidUTF8``.
  static func validatedUTF8(_ bytes: ArraySlice<UInt8>) throws(WebSocketError) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    // Decoding replaces invalid sequences with U+FFFD, so valid input round-trips exactly.
    guard text.utf8.elementsEqual(bytes) else { throw .invalidUTF8 }
    return text
  }

  private static func parseClose(
    _ payload: ArraySlice<UInt8>
  ) throws(WebSocketError) -> WebSocketEvent {
    if payload.isEmpty { return .close(code: nil, reason: "") }
    guard payload.count >= 2 else { throw .protocolViolation("close payload of 1 byte") }
    let start = payload.startIndex
    let code = UInt16(payload[start]) << 8 | UInt16(payload[start + 1])
    guard isValidCloseCode(code) else { throw .protocolViolation("close code \(code)") }
    return .close(code: code, reason: try validatedUTF8(payload[(start + 2)...]))
  }

  /// Codes a peer may send in a close frame (RFC 6455 §7.4): 1000–1003, 1007–1014 and
  /// 3000–4999; 1004–1006 and 1015 are reserved and never sent.
  public static func isValidCloseCode(_ code: UInt16) -> Bool {
    switch code {
    case 1000...1003, 1007...1014, 3000...4999: true
    default: false
    }
  }
}
