/// Reads one dependency from the scope the reader runs in.
///
/// ```swift
/// .cancellable { event, state in
///   guard case .addTapped = event else { return nil }
///   return .run(id: "add") {
///     @Dependency(\.uuid) var uuid
///     return .added(uuid())
///   }
/// }
/// ```
///
/// The value is read from `DependencyValues.current` each time `wrappedValue` is read, so a
/// local declared inside an effect sees the effect's scope (its feedback system's).
///
/// - Complexity: as `DependencyValues`' subscript, per read.
/// - Note: Isolation: a `Sendable` value; reads from any isolation.
/// - Note: Allocations: none of its own.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
  private let keyPath: any KeyPath<DependencyValues, Value> & Sendable

  /// Reads the dependency at `keyPath` (`\.uuid`, `\.continuousClock`, `\.factClient`).
  ///
  /// - Complexity: O(1).
  public init(_ keyPath: any KeyPath<DependencyValues, Value> & Sendable) { self.keyPath = keyPath }

  /// The value in the current scope.
  public var wrappedValue: Value { DependencyValues.current[keyPath: keyPath] }
}
