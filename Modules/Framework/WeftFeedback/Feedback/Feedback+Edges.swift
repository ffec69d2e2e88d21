extension Feedback {
  /// Runs an effect when a boolean of the state goes from false to true, and cancels it when
  /// the boolean goes back to false.
  ///
  /// ```swift
  /// .whenBecomesTrue(state: \.isLoading) { state in
  ///   do { return .loaded(try await api.fetch(state.page)) }
  ///   catch { return .loadFailed(error.localizedDescription) }
  /// }
  /// ```
  ///
  /// The system starts as if the boolean had been false, so an initial state where it is
  /// true starts the effect. While it stays true nothing restarts, even if the effect
  /// completed; it must become false and true again.
  ///
  /// - Parameters:
  ///   - flag: the boolean of a state, usually a key path.
  ///   - effects: the effect, given the state at the false→true edge.
  /// - Complexity: O(1) per reduced event, plus `flag`.
  /// - Note: Isolation: `flag` runs on the system's host; see `Feedback`.
  /// - Note: Allocations: one task per edge.
  public static func whenBecomesTrue(
    state flag: @escaping @Sendable (State) -> Bool,
    effects: @escaping @Sendable (State) async -> Event?
  ) -> Self {
    lens(
      kind: "whenBecomesTrue", { flag($0) ? $0 : nil }, .keepWhileNonNil, describesQuery: false,
      effect: { state in .function { await effects(state) } })
  }

  /// Sequence form of `whenBecomesTrue(state:effects:)`: every element is fed back until
  /// the sequence ends or the flag goes false.
  ///
  /// - Complexity: as the function form, plus O(1) per element fed back.
  /// - Note: Isolation: the sequence is made and iterated on the system's host.
  /// - Note: Allocations: one task per launch.
  public static func whenBecomesTrue<Events: AsyncSequence & SendableMetatype>(
    state flag: @escaping @Sendable (State) -> Bool,
    effects: @escaping @Sendable (State) -> Events
  ) -> Self where Events.Element == Event, Events.Failure == Never {
    lens(
      kind: "whenBecomesTrue", { flag($0) ? $0 : nil }, .keepWhileNonNil, describesQuery: false,
      effect: { state in .sequence { effects(state) } })
  }
}
