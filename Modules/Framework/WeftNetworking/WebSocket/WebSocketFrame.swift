/// A WebSocket frame's opcode (RFC 6455 §5.2).
///
/// - Complexity: O(1).
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: none.
public enum WebSocketOpcode: UInt8, Sendable, Equatable {
  case continuation = 0x0
  case text = 0x1
  case binary = 0x2
  case close = 0x8
  case ping = 0x9
  case pong = 0xA

  /// Close, ping and pong: at most 125 bytes of payload, never fragmented.
  public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// Encodes WebSocket frames (RFC 6455 §5.2); pure functions of their arguments.
///
/// A client masks every frame it sends; the masking key comes from the caller (the live
/// connection draws it from `SystemRandomNumberGenerator`, tests from ``SeededRandom``).
///
/// - Complexity: O(payload) per frame.
/// - Note: Isolation: stateless; any isolation.
/// - Note: Allocations: one array per frame (per message for `encodeMessage`).
public enum WebSocketFrameEncoder {
  /// The largest payload a control frame may carry.
  public static let maxControlPayload = 125

  /// Encodes one frame; `maskingKey` nil sends it unmasked (a server's frames).
  public static func encode(
    opcode: WebSocketOpcode, payload: some Collection<UInt8>, fin: Bool = true,
    maskingKey: UInt32?
  ) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(payload.count + 14)
    append(
      opcode: opcode, payload: payload, fin: fin, rsv1: false, maskingKey: maskingKey, to: &out)
    return out
  }

  /// Appends one frame to `out` (header, key, masked payload: one copy of the payload).
  static func append(
    opcode: WebSocketOpcode, payload: some Collection<UInt8>, fin: Bool, rsv1: Bool,
    maskingKey: UInt32?, to out: inout [UInt8]
  ) {
    let length = payload.count
    out.append((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode.rawValue)
    let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
    if length < 126 {
      out.append(maskBit | UInt8(length))
    } else if length <= 0xFFFF {
      out.append(maskBit | 126)
      out.append(UInt8(length >> 8))
      out.append(UInt8(length & 0xFF))
    } else {
      out.append(maskBit | 127)
      for shift in stride(from: 56, through: 0, by: -8) {
        out.append(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift)))
      }
    }
    guard let maskingKey else {
      out.append(contentsOf: payload)
      return
    }
    out.append(UInt8(maskingKey >> 24))
    out.append(UInt8((maskingKey >> 16) & 0xFF))
    out.append(UInt8((maskingKey >> 8) & 0xFF))
    out.append(UInt8(maskingKey & 0xFF))
    let payloadStart = out.count
    out.append(contentsOf: payload)
    out.withUnsafeMutableBytes { bytes in
      WebSocketMasking.apply(
        key: maskingKey, to: UnsafeMutableRawBufferPointer(rebasing: bytes[payloadStart...]))
    }
  }

  /// Encodes a whole message as one frame, or as fragments of at most `fragmentSize` bytes
  /// (a first text/binary frame, then continuations; the last has FIN set). Each frame gets
  /// a fresh masking key from `maskingKeys` (nil: unmasked). The payload is copied once, into
  /// the returned bytes.
  public static func encodeMessage(
    _ message: RealtimeMessage, fragmentSize: Int = .max,
    maskingKeys: inout some RandomNumberGenerator, masked: Bool = true
  ) -> [UInt8] {
    encodeMessage(
      message, fragmentSize: fragmentSize, maskingKeys: &maskingKeys, masked: masked,
      deflater: nil)
  }

  /// As the public `encodeMessage`, compressed with `deflater` (permessage-deflate: the
  /// first frame has RSV1 set) when there is one.
  static func encodeMessage(
    _ message: RealtimeMessage, fragmentSize: Int,
    maskingKeys: inout some RandomNumberGenerator, masked: Bool, deflater: Deflater?
  ) -> [UInt8] {
    func frames(_ bytes: UnsafeRawBufferPointer, _ opcode: WebSocketOpcode) -> [UInt8] {
      guard let deflater else {
        return encode(
          bytes, opcode: opcode, fragmentSize: fragmentSize, rsv1: false,
          maskingKeys: &maskingKeys, masked: masked)
      }
      return deflater.compress(bytes).withUnsafeBytes {
        encode(
          $0, opcode: opcode, fragmentSize: fragmentSize, rsv1: true, maskingKeys: &maskingKeys,
          masked: masked)
      }
    }
    switch message {
    case .text(var text): return text.withUTF8 { frames(UnsafeRawBufferPointer($0), .text) }
    case .data(let data): return data.withUnsafeBytes { frames($0, .binary) }
    }
  }

  /// The frames of one message, written straight into one array of their exact size: each
  /// payload byte is read once and written once (copied and masked in the same pass).
  private static func encode(
    _ bytes: UnsafeRawBufferPointer, opcode: WebSocketOpcode, fragmentSize: Int, rsv1: Bool,
    maskingKeys: inout some RandomNumberGenerator, masked: Bool
  ) -> [UInt8] {
    let size = max(1, fragmentSize)
    let frames = bytes.isEmpty ? 1 : 1 + (bytes.count - 1) / size
    var total = 0
    var start = 0
    repeat {
      let length = min(size, bytes.count - start)
      total += headerLength(length, masked: masked) + length
      start += length
    } while start < bytes.count
    var keys: [UInt32] = []
    if masked {
      keys.reserveCapacity(frames)
      for _ in 0..<frames { keys.append(UInt32.random(in: .min ... .max, using: &maskingKeys)) }
    }
    return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
      guard let base = UnsafeMutableRawPointer(out.baseAddress) else { return }
      var offset = 0
      var start = 0
      var frame = 0
      repeat {
        let end = bytes.count - start > size ? start + size : bytes.count
        let length = end - start
        let first = (start == 0 ? opcode : .continuation).rawValue
        base.storeBytes(
          of: (end == bytes.count ? 0x80 : 0) | (rsv1 && start == 0 ? 0x40 : 0) | first,
          toByteOffset: offset, as: UInt8.self)
        let maskBit: UInt8 = masked ? 0x80 : 0
        var header = offset + 1
        func put(_ byte: UInt8) {
          base.storeBytes(of: byte, toByteOffset: header, as: UInt8.self)
          header += 1
        }
        if length < 126 {
          put(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
          put(maskBit | 126)
          put(UInt8(length >> 8))
          put(UInt8(length & 0xFF))
        } else {
          put(maskBit | 127)
          for shift in stride(from: 56, through: 0, by: -8) {
            put(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift)))
          }
        }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        if masked {
          let key = keys[frame]
          put(UInt8(key >> 24))
          put(UInt8((key >> 16) & 0xFF))
          put(UInt8((key >> 8) & 0xFF))
          put(UInt8(key & 0xFF))
          WebSocketMasking.copy(payload, to: base + header, key: key)
        } else if let from = payload.baseAddress {
          (base + header).copyMemory(from: from, byteCount: length)
        }
        offset = header + length
        start = end
        frame += 1
      } while start < bytes.count
      initialized = offset
    }
  }

  /// A frame header's length: 2 bytes, the extended length (2 or 8) and the key (4).
  private static func headerLength(_ payload: Int, masked: Bool) -> Int {
    (payload < 126 ? 2 : payload <= 0xFFFF ? 4 : 10) + (masked ? 4 : 0)
  }

  /// A close frame's payload: the code (big-endian) and a UTF-8 reason, cut to fit 125 bytes.
  public static func closePayload(code: UInt16?, reason: String) -> [UInt8] {
    guard let code else { return [] }
    var out: [UInt8] = [UInt8(code >> 8), UInt8(code & 0xFF)]
    var reasonBytes = Array(reason.utf8)
    while reasonBytes.count > maxControlPayload - 2 {
      // Cut whole scalars so the reason stays valid UTF-8.
      var scalars = String(decoding: reasonBytes, as: UTF8.self).unicodeScalars
      scalars.removeLast()
      reasonBytes = Array(String(scalars).utf8)
    }
    out += reasonBytes
    return out
  }
}

/// A message's masked frames made chunk by chunk as they are written, through one reusable
/// buffer: a large message is neither copied into an array of its own size first nor masked
/// before its first bytes can go out. The same frames, byte for byte, as
/// ``WebSocketFrameEncoder/encodeMessage(_:fragmentSize:maskingKeys:masked:)`` makes with the
/// same keys.
///
/// - Complexity: O(payload) per ``write(chunkSize:_:)``.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: one buffer of `chunkSize` bytes per write (the message is shared,
///   not copied).
struct WebSocketOutgoingMessage: Sendable {
  let message: RealtimeMessage
  let fragmentSize: Int
  /// One masking key per frame, drawn in frame order.
  let keys: [UInt32]

  init(
    _ message: RealtimeMessage, fragmentSize: Int,
    maskingKeys: inout some RandomNumberGenerator
  ) {
    self.message = message
    self.fragmentSize = max(1, fragmentSize)
    let count: Int
    switch message {
    case .text(let text): count = text.utf8.count
    case .data(let data): count = data.count
    }
    let frames = count == 0 ? 1 : 1 + (count - 1) / self.fragmentSize
    var keys: [UInt32] = []
    keys.reserveCapacity(frames)
    for _ in 0..<frames { keys.append(UInt32.random(in: .min ... .max, using: &maskingKeys)) }
    self.keys = keys
  }

  /// Makes the frames into a buffer of `chunkSize` bytes (at least 16) and passes each full
  /// chunk, then the last, to `write`.
  func write(
    chunkSize: Int, _ write: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let size = max(16, chunkSize)
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { scratch.deallocate() }
    let base = scratch.baseAddress!
    var used = 0
    func flush() throws {
      if used > 0 { try write(UnsafeRawBufferPointer(rebasing: scratch[..<used])) }
      used = 0
    }
    func frames(_ bytes: UnsafeRawBufferPointer, _ opcode: WebSocketOpcode) throws {
      var start = 0
      var frame = 0
      repeat {
        let end = bytes.count - start > fragmentSize ? start + fragmentSize : bytes.count
        let length = end - start
        if size - used < 14 { try flush() }
        func put(_ byte: UInt8) {
          base.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
          used += 1
        }
        put((end == bytes.count ? 0x80 : 0) | (start == 0 ? opcode : .continuation).rawValue)
        if length < 126 {
          put(0x80 | UInt8(length))
        } else if length <= 0xFFFF {
          put(0x80 | 126)
          put(UInt8(length >> 8))
          put(UInt8(length & 0xFF))
        } else {
          put(0x80 | 127)
          for shift in stride(from: 56, through: 0, by: -8) {
            put(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift)))
          }
        }
        let key = keys[frame]
        put(UInt8(key >> 24))
        put(UInt8((key >> 16) & 0xFF))
        put(UInt8((key >> 8) & 0xFF))
        put(UInt8(key & 0xFF))
        var offset = 0
        while offset < length {
          if used == size { try flush() }
          let count = min(length - offset, size - used)
          // The key, turned so that its first byte masks payload byte `offset`.
          let shift = UInt32(8 * (offset & 3))
          let turned = shift == 0 ? key : key << shift | key >> (32 - shift)
          WebSocketMasking.copy(
            UnsafeRawBufferPointer(rebasing: bytes[(start + offset)..<(start + offset + count)]),
            to: base + used, key: turned)
          used += count
          offset += count
        }
        start = end
        frame += 1
      } while start < bytes.count
    }
    switch message {
    case .text(var text): try text.withUTF8 { try frames(UnsafeRawBufferPointer($0), .text) }
    case .data(let data): try data.withUnsafeBytes { try frames($0, .binary) }
    }
    try flush()
  }
}
