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
/// - Note: Allocations: one array per frame.
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

  private static func encode(
    _ bytes: UnsafeRawBufferPointer, opcode: WebSocketOpcode, fragmentSize: Int, rsv1: Bool,
    maskingKeys: inout some RandomNumberGenerator, masked: Bool
  ) -> [UInt8] {
    let size = max(1, fragmentSize)
    let frames = bytes.isEmpty ? 1 : 1 + (bytes.count - 1) / size
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + frames * 14)
    var start = 0
    repeat {
      let end = bytes.count - start > size ? start + size : bytes.count
      let key: UInt32? = masked ? UInt32.random(in: .min ... .max, using: &maskingKeys) : nil
      append(
        opcode: start == 0 ? opcode : .continuation, payload: bytes[start..<end],
        fin: end == bytes.count, rsv1: rsv1 && start == 0, maskingKey: key, to: &out)
      start = end
    } while start < bytes.count
    return out
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
