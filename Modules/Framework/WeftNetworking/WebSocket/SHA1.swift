/// SHA-1 (FIPS 180-4), for the WebSocket opening handshake's `Sec-WebSocket-Accept` check
/// ONLY: RFC 6455 fixes that digest, and WeftNetworking has no crypto dependency. SHA-1 is
/// broken for collision resistance; never use this for anything that needs security.
///
/// - Complexity: O(n).
/// - Note: Isolation: a pure function; any isolation.
/// - Note: Allocations: one padded copy of the input.
func sha1(_ message: some Collection<UInt8>) -> [UInt8] {
  var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
  )
  var bytes = Array(message)
  let bitLength = UInt64(bytes.count) &* 8
  bytes.append(0x80)
  while bytes.count % 64 != 56 { bytes.append(0) }
  for shift in stride(from: 56, through: 0, by: -8) {
    bytes.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
  }
  var w = [UInt32](repeating: 0, count: 80)
  for chunk in stride(from: 0, to: bytes.count, by: 64) {
    for index in 0..<16 {
      let at = chunk + index * 4
      w[index] =
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
        | UInt32(bytes[at + 3])
    }
    for index in 16..<80 {
      let x = w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16]
      w[index] = x << 1 | x >> 31
    }
    var (a, b, c, d, e) = h
    for index in 0..<80 {
      let f: UInt32
      let k: UInt32
      switch index {
      case 0..<20:
        f = (b & c) | (~b & d)
        k = 0x5A82_7999
      case 20..<40:
        f = b ^ c ^ d
        k = 0x6ED9_EBA1
      case 40..<60:
        f = (b & c) | (b & d) | (c & d)
        k = 0x8F1B_BCDC
      default:
        f = b ^ c ^ d
        k = 0xCA62_C1D6
      }
      let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[index]
      e = d
      d = c
      c = b << 30 | b >> 2
      b = a
      a = temp
    }
    h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
  }
  var out: [UInt8] = []
  for word in [h.0, h.1, h.2, h.3, h.4] {
    out += [
      UInt8(word >> 24), UInt8((word >> 16) & 0xFF), UInt8((word >> 8) & 0xFF), UInt8(word & 0xFF),
    ]
  }
  return out
}
