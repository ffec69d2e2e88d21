import WeftDependencies

extension Context {
  /// Overrides dependencies for this context and every context below it.
  ///
  /// ```swift
  /// let preview = Context.global.createSubcontext(named: "Preview")
  /// preview.overrideDependencies { $0.date = .constant(Date(timeIntervalSince1970: 0)) }
  /// let store = preview.withDependencies { makeStore() }   // its effects read the date above
  /// ```
  ///
  /// Overrides add up down the tree: a subcontext sees its supercontext's, then its own
  /// (later ones win). Siblings never see each other's.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: one entry per call.
  public func overrideDependencies(_ update: @escaping (inout DependencyValues) -> Void) {
    dependencyOverrides.append(update)
  }

  /// The dependencies in this subtree: the current task's scope
  /// (`DependencyValues.current`) with the overrides of every context from the root down to
  /// this one applied in order.
  ///
  /// - Complexity: O(d + o), d = depth, o = overrides on the way.
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: one override set per override on the way (none when there are
  ///   none).
  public var dependencyValues: DependencyValues {
    var chain: [Context] = []
    var next: Context? = self
    while let context = next {
      if !context.dependencyOverrides.isEmpty { chain.append(context) }
      next = context.supercontext
    }
    var values = DependencyValues.current
    for context in chain.reversed() {
      for update in context.dependencyOverrides { update(&values) }
    }
    return values
  }

  /// Runs `operation` with this subtree's `dependencyValues` in scope: a feedback system or
  /// store made inside keeps them for its effects, and tasks started inside inherit them.
  ///
  /// - Complexity: as `dependencyValues`, plus `operation`.
  /// - Note: Isolation: MainActor; `operation` runs synchronously.
  /// - Note: Allocations: as `dependencyValues`, plus one task-local binding.
  public func withDependencies<Result>(_ operation: () throws -> Result) rethrows -> Result {
    try WeftDependencies.withDependencies(dependencyValues, operation: operation)
  }
}
