/// A small, fast, seedable random number generator (xoshiro256\*\*, seeded through
/// SplitMix64), so every jitter, latency and fault in a run follows from one seed.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let jitter = Double.random(in: 0..<1, using: &random)   // the same every run
/// ```
///
/// > Important: Not cryptographic. Use it for simulation and jitter only.
///
/// - Complexity: O(1) per number.
/// - Note: Isolation: a value type; keep one per owner (inside a lock or an actor).
/// - Note: Allocations: none.
public struct SeededRandom: RandomNumberGenerator, Sendable, Equatable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// Makes a generator whose whole sequence is fixed by `seed`.
  public init(seed: UInt64) {
    var mixer = SplitMix64(state: seed)
    s0 = mixer.next()
    s1 = mixer.next()
    s2 = mixer.next()
    s3 = mixer.next()
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    let result = rotate(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotate(s3, 45)
    return result
  }

  /// A number in `0..<1` with 53 random bits.
  public mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// A generator for a sub-sequence (one request, one connection), seeded from this one, so
  /// the order sub-sequences are used in does not change what each of them draws.
  public mutating func split() -> SeededRandom { SeededRandom(seed: next()) }

  private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}

/// SplitMix64, used to spread a seed over xoshiro's 256 bits of state.
struct SplitMix64 {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension Duration {
  /// This duration scaled by `factor` (≥ 0), to the nanosecond, saturating at `Int64.max` ns.
  func scaled(by factor: Double) -> Duration {
    let nanoseconds = Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    let scaled = (nanoseconds * max(factor, 0)).rounded(.down)
    return scaled >= 9.2e18 ? .nanoseconds(Int64.max) : .nanoseconds(Int64(scaled))
  }
}
