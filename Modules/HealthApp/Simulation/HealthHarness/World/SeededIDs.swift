import Foundation
import WeftCore
import WeftNetworking

/// Makes UUIDs from a seed: the same seed gives the same sequence, so ids in a simulated
/// run (metrics, insights, idempotency keys) are reproducible.
///
/// - Complexity: O(1) per id.
/// - Note: Isolation: thread-safe (one lock).
/// - Note: Allocations: none.
public final class SeededIDs: Sendable {
  private let random: Locked<SeededRandom>

  /// Makes a generator seeded with `seed`.
  ///
  /// - Complexity: O(1).
  public init(seed: UInt64) { random = Locked(SeededRandom(seed: seed)) }

  /// The next id (a version-4 UUID).
  ///
  /// - Complexity: O(1).
  public func next() -> UUID {
    let (high, low) = random.withLock { ($0.next(), $0.next()) }
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in 0..<8 {
      bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * index))
      bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (8 * index))
    }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }

  /// The next number in 0..<1.
  ///
  /// - Complexity: O(1).
  public func nextUnit() -> Double { random.withLock { $0.nextUnit() } }
}
