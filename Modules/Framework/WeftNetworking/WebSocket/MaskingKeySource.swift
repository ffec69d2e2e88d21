/// The system's random numbers, in a generator with storage: what the WebSocket transport
/// passes `inout` for handshake keys and masking keys.
///
/// `SystemRandomNumberGenerator` is an empty struct, and an empty value has no address of its
/// own: ThreadSanitizer builds instrument every `inout` access to it and crashed (SEGV on a
/// wild shadow address) when the handshake and the connection machine drew from it. One byte
/// of state gives the value a real address; the numbers still come from the system's
/// generator.
///
/// - Complexity: O(1) per number.
/// - Note: Isolation: a value; each caller owns its own.
struct MaskingKeySource: RandomNumberGenerator {
  private var drawn: UInt8 = 0

  /// Makes a source.
  init() {}

  /// The next 64 random bits, from the system's generator.
  mutating func next() -> UInt64 {
    drawn &+= 1
    return UInt64.random(in: .min ... .max)
  }
}
