import WeftCore

/// A source of random numbers shared by everyone in a scope: the live one is the system's,
/// a simulator's or test's a seeded generator.
///
/// ```swift
/// @Dependency(\.random) var random
/// var generator = random          // a handle on the same source
/// let roll = Int.random(in: 1...6, using: &generator)
/// ```
///
/// Copies are handles on one generator (behind a lock), so draws from anywhere in the
/// scope continue one sequence.
///
/// - Complexity: O(1) per number plus one lock.
/// - Note: Isolation: a `Sendable` value; thread-safe.
/// - Note: Allocations: none per number.
public struct RandomSource: RandomNumberGenerator, Sendable {
  private let draw: @Sendable () -> UInt64

  /// A source drawing from `generator` (for example WeftNetworking's `SeededRandom`).
  ///
  /// - Complexity: O(1).
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    let locked = Locked(generator)
    draw = { locked.withLock { $0.next() } }
  }

  /// A source that calls `draw` for each 64 bits.
  ///
  /// - Complexity: O(1).
  public init(draw: @escaping @Sendable () -> UInt64) { self.draw = draw }

  /// The next 64 random bits.
  public func next() -> UInt64 { draw() }

  /// The system's generator (`SystemRandomNumberGenerator`).
  public static let live = RandomSource(SystemRandomNumberGenerator())
}

extension DependencyValues {
  /// Random numbers. Live: the system's; test: unimplemented (a draw reports an issue
  /// naming `DependencyValues.random` and answers 0).
  public var random: RandomSource {
    get { self[RandomSourceKey.self] }
    set { self[RandomSourceKey.self] = newValue }
  }
}

private enum RandomSourceKey: DependencyKey {
  static let liveValue = RandomSource.live
  static let testValue = RandomSource(
    draw: unimplemented("DependencyValues.random", placeholder: UInt64(0)))
}
