import Foundation
import WeftCore

/// Makes UUIDs: the live one random, the test one counting up from
/// `00000000-0000-0000-0000-000000000000`, so tests can name the ids they expect.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// let id = uuid()
/// ```
///
/// - Complexity: O(1) per id.
/// - Note: Isolation: a `Sendable` value; thread-safe.
/// - Note: Allocations: none per id (the incrementing one takes a lock).
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// A generator that calls `generate` for each id (a seeded one in a simulator).
  ///
  /// - Complexity: O(1).
  public init(_ generate: @escaping @Sendable () -> UUID) { self.generate = generate }

  /// The next id.
  public func callAsFunction() -> UUID { generate() }

  /// Random version-4 ids (`UUID()`).
  public static let live = UUIDGenerator { UUID() }

  /// Ids counting up from `00000000-0000-0000-0000-000000000000`; a fresh counter each
  /// time this is read (the test default: one counter per test scope).
  public static var incrementing: UUIDGenerator {
    let counter = Locked<UInt64>(0)
    return UUIDGenerator {
      let number = counter.withLock { count -> UInt64 in
        defer { count += 1 }
        return count
      }
      return UUID(counting: number)
    }
  }

  /// Always `uuid`.
  public static func constant(_ uuid: UUID) -> UUIDGenerator { UUIDGenerator { uuid } }
}

extension UUID {
  /// The UUID whose last 64 bits are `number`, big-endian (`…-000000000001` for 1).
  ///
  /// - Complexity: O(1).
  public init(counting number: UInt64) {
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &bytes) { raw in
      for index in 0..<8 { raw[15 - index] = UInt8(truncatingIfNeeded: number >> (8 * index)) }
    }
    self.init(uuid: bytes)
  }
}

extension DependencyValues {
  /// Makes ids for new records. Live: `UUID()`; test: counting up from 0, per test.
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}

private enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator.live
  static var testValue: UUIDGenerator { .incrementing }
}
