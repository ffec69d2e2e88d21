/// RFC 6455 §5.3 masking: XOR with a 4-byte key repeated, eight bytes at a time (a copy
/// while masking: 32). Masking and unmasking are the same operation.
///
/// - Complexity: O(bytes), one 64-bit XOR per 8 bytes.
/// - Note: Isolation: stateless; any isolation.
/// - Note: Allocations: none.
enum WebSocketMasking {
  /// XORs `bytes` in place with `key`, whose most significant byte masks the first byte.
  static func apply(key: UInt32, to bytes: UnsafeMutableRawBufferPointer) {
    var pattern: UInt64 = 0
    withUnsafeMutableBytes(of: &pattern) { word in
      for index in 0..<8 { word[index] = keyByte(key, index) }
    }
    let count = bytes.count
    var index = 0
    while index + 8 <= count {
      let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
      bytes.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < count {
      bytes[index] ^= keyByte(key, index)
      index += 1
    }
  }

  /// Writes `source` XOR `key` to `destination` (which holds at least `source.count` bytes):
  /// a copy and the masking in one pass, 32 bytes at a time.
  ///
  /// - Complexity: O(bytes).
  static func copy(
    _ source: UnsafeRawBufferPointer, to destination: UnsafeMutableRawPointer, key: UInt32
  ) {
    var pattern: UInt64 = 0
    withUnsafeMutableBytes(of: &pattern) { word in
      for index in 0..<8 { word[index] = keyByte(key, index) }
    }
    let count = source.count
    guard let from = source.baseAddress else { return }
    var index = 0
    while index + 32 <= count {
      let a = from.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
      let b = from.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self) ^ pattern
      let c = from.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self) ^ pattern
      let d = from.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self) ^ pattern
      destination.storeBytes(of: a, toByteOffset: index, as: UInt64.self)
      destination.storeBytes(of: b, toByteOffset: index + 8, as: UInt64.self)
      destination.storeBytes(of: c, toByteOffset: index + 16, as: UInt64.self)
      destination.storeBytes(of: d, toByteOffset: index + 24, as: UInt64.self)
      index += 32
    }
    while index + 8 <= count {
      let word = from.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
      destination.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < count {
      destination.storeBytes(
        of: from.load(fromByteOffset: index, as: UInt8.self) ^ keyByte(key, index),
        toByteOffset: index, as: UInt8.self)
      index += 1
    }
  }

  /// The key byte that masks the payload byte at `index`.
  @inline(__always)
  private static func keyByte(_ key: UInt32, _ index: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: key >> (24 - 8 * UInt32(index & 3)))
  }
}
