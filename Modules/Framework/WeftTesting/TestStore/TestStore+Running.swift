import WeftFeedback

extension TestStore {
  /// The effects launched and not yet finished, in launch order: each one's `scheduled`
  /// record, whose `detail` is the element or key a `forEach` effect runs for (or the query
  /// or payload of the other kinds).
  ///
  /// ```swift
  /// store.send(.show(["a": 1, "b": 2]), effects: .started("rows", "rows")) { ... }
  /// #expect(store.runningEffects.map(\.detail) == ["a", "b"])
  /// ```
  ///
  /// An effect that was cancelled stays listed until its task has ended; `finish()` and the
  /// store's leftover report name the same effects.
  ///
  /// - Complexity: O(e log e) for e running effects.
  /// - Note: Isolation: `@MainActor`, as the store.
  /// - Note: Allocations: the array.
  public var runningEffects: [EffectActivity] {
    tracker.record.running.values.map(\.activity).sorted { $0.effect < $1.effect }
  }
}
