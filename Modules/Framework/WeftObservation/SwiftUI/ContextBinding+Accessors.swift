import WeftContexts

extension ContextBinding where Value: Sendable {
  /// The binding's read and write as `@Sendable` closures that run on the MainActor — the
  /// shape `SwiftUI.Binding(get:set:)` takes whichever way an SDK annotates its closures
  /// (plain, `@Sendable`, or `@isolated(any) @Sendable`): a `@Sendable` function converts to
  /// each of them, which a `@MainActor` closure literal does not (it converts only to the
  /// `@isolated(any)` one). Compiled and tested on every platform, so the SwiftUI sugar
  /// (`Binding+SwiftUI.swift`, compiled only where SwiftUI exists) is a bare call.
  ///
  /// - Complexity: O(1); two closures.
  /// - Note: Isolation: MainActor. Each closure asserts it runs on the MainActor (SwiftUI
  ///   reads and writes bindings there) and traps otherwise.
  /// - Note: Allocations: two closure contexts.
  package var mainActorAccessors: (get: @Sendable () -> Value, set: @Sendable (Value) -> Void) {
    let binding = self
    return (
      get: { MainActor.assumeIsolated { binding.get() } },
      set: { value in MainActor.assumeIsolated { binding.set(value) } }
    )
  }
}
