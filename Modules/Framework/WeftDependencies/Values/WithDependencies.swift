/// Runs `operation` with the dependencies in scope changed by `update`: the current ones,
/// overridden.
///
/// ```swift
/// let todo = withDependencies {
///   $0.uuid = .incrementing
///   $0.date = .constant(Date(timeIntervalSince1970: 0))
/// } operation: {
///   Todo.make(title: "Milk")
/// }
/// ```
///
/// - Complexity: O(o) to copy the overrides, o = overrides, plus `operation`.
/// - Note: Isolation: runs `operation` synchronously on the caller's isolation; tasks it
///   creates with `Task {}` inherit the scope.
/// - Note: Allocations: one override set per `update`, one task-local binding.
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void, operation: () throws -> Result
) rethrows -> Result {
  var values = DependencyValues.current
  try update(&values)
  return try DependencyValues.$scoped.withValue(values, operation: operation)
}

/// The `async` form of `withDependencies(_:operation:)`.
///
/// - Complexity: as the synchronous form.
/// - Note: Isolation: `operation` runs on the caller's isolation.
/// - Note: Allocations: as the synchronous form.
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> Result
) async rethrows -> Result {
  var values = DependencyValues.current
  try update(&values)
  return try await DependencyValues.$scoped.withValue(
    values, operation: operation, isolation: isolation)
}

/// Runs `operation` with exactly `values` in scope (what a feedback system does with the
/// scope it was made in, and a context with its subtree's).
///
/// - Complexity: O(1) plus `operation`.
/// - Note: Isolation: runs `operation` synchronously on the caller's isolation.
/// - Note: Allocations: one task-local binding.
public func withDependencies<Result>(
  _ values: DependencyValues, operation: () throws -> Result
) rethrows -> Result {
  try DependencyValues.$scoped.withValue(values, operation: operation)
}

/// The `async` form of `withDependencies(_:operation:)` that takes a whole set.
///
/// - Complexity: O(1) plus `operation`.
/// - Note: Isolation: `operation` runs on the caller's isolation.
/// - Note: Allocations: one task-local binding.
public func withDependencies<Result>(
  _ values: DependencyValues, isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> Result
) async rethrows -> Result {
  try await DependencyValues.$scoped.withValue(values, operation: operation, isolation: isolation)
}
