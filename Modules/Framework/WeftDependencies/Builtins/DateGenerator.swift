import Foundation

/// The current date: the live one is `Date()`; a test says which date it is.
///
/// ```swift
/// @Dependency(\.date) var date
/// let created = date.now
/// ```
///
/// - Complexity: O(1) per read.
/// - Note: Isolation: a `Sendable` value; thread-safe.
/// - Note: Allocations: none.
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  /// A generator that calls `generate` for each read (a simulator's: start + virtual time).
  ///
  /// - Complexity: O(1).
  public init(_ generate: @escaping @Sendable () -> Date) { self.generate = generate }

  /// The current date.
  public var now: Date { generate() }

  /// The current date.
  public func callAsFunction() -> Date { generate() }

  /// `Date()`.
  public static let live = DateGenerator { Date() }

  /// Always `date`.
  public static func constant(_ date: Date) -> DateGenerator { DateGenerator { date } }
}

extension DependencyValues {
  /// The current date. Live: `Date()`; test: unimplemented (a read reports an issue naming
  /// `DependencyValues.date` and answers 1970-01-01).
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}

private enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator.live
  static let testValue = DateGenerator(
    unimplemented("DependencyValues.date", placeholder: Date(timeIntervalSince1970: 0)))
}
