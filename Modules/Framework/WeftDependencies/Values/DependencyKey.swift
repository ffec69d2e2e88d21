/// A dependency: a type that names one value the app reads from the outside world (a clock,
/// an API client, the date), with the implementation the app runs with and the one tests get.
///
/// ```swift
/// struct FactClient: Sendable {
///   var fetch: @Sendable (Int) async throws -> String
/// }
/// enum FactClientKey: DependencyKey {
///   static let liveValue = FactClient { number in try await download(number) }
///   static let testValue = FactClient(fetch: unimplemented("FactClient.fetch"))
/// }
/// extension DependencyValues {
///   var factClient: FactClient {
///     get { self[FactClientKey.self] }
///     set { self[FactClientKey.self] = newValue }
///   }
/// }
/// ```
///
/// Effects read it with `@Dependency(\.factClient) var factClient` (or
/// `DependencyValues.current.factClient`); a test, a `TestStore`, a feedback system or a
/// context subtree overrides it (`withDependencies { $0.factClient.fetch = { "\($0)" } }`).
///
/// > Important: Make `testValue` *unimplemented* (`unimplemented("Type.endpoint")`): a test
/// > that reaches an endpoint it did not override then fails with the endpoint's name,
/// > instead of calling the live one.
///
/// - Complexity: each value is made once per scope that reads it (see `DependencyValues`).
/// - Note: Isolation: the values are `Sendable`; `liveValue` and `testValue` may be read
///   from any isolation.
public protocol DependencyKey: Sendable {
  /// The type of the value.
  associatedtype Value: Sendable
  /// What the app runs with (the `.live` context).
  static var liveValue: Value { get }
  /// What tests get unless they override it (the `.test` context): usually unimplemented.
  static var testValue: Value { get }
}

/// Which default a `DependencyValues` answers for a key nobody overrode.
///
/// - Complexity: O(1).
/// - Note: Isolation: a `Sendable` value.
public enum DependencyContext: String, Sendable, Hashable {
  /// `liveValue`: the app, and a simulator (which overrides what it simulates).
  case live
  /// `testValue`: a `TestStore`, a test with the `.dependencies` trait (WeftTesting).
  case test
}
