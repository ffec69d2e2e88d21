extension Feedback {
  /// Runs an effect for the current non-nil query of the state; every reduced state with a
  /// non-nil query cancels the running effect and starts a new one; a nil query cancels it.
  ///
  /// ```swift
  /// .lensing(state: \.searchQuery) { query in
  ///   do { try await clock.sleep(for: .milliseconds(300)) }  // a debounce: restarts cancel it
  ///   catch { return nil }                                     // cancelled: superseded
  ///   return .search(query)
  /// }
  /// ```
  ///
  /// > Important: Every reduced event whose state has a non-nil query restarts the effect,
  /// > even if the query did not change (the query need not be `Equatable`, so it cannot be
  /// > compared). Use `lensingSkippingRepeated` to restart only on a new query.
  ///
  /// - Parameters:
  ///   - query: the query of a state; nil means no effect should run.
  ///   - effects: the effect for a query: an async function returning the event to feed back.
  /// - Complexity: O(1) per reduced event, plus `query`.
  /// - Note: Isolation: `query` runs on the system's host; see `Feedback`.
  /// - Note: Allocations: one task per restart.
  public static func lensing<Query: Sendable>(
    state query: @escaping @Sendable (State) -> Query?,
    effects: @escaping @Sendable (Query) async -> Event?
  ) -> Self {
    lens(kind: "lensing", query, .restartOnEveryState) { query in
      .function { await effects(query) }
    }
  }

  /// Sequence form of `lensing(state:effects:)`: every element the sequence yields is fed
  /// back, until the sequence ends or the effect is cancelled.
  ///
  /// - Complexity: as the function form, plus O(1) per element fed back.
  /// - Note: Isolation: the sequence is made and iterated on the system's host.
  /// - Note: Allocations: one task per launch.
  public static func lensing<Query: Sendable, Events: AsyncSequence & SendableMetatype>(
    state query: @escaping @Sendable (State) -> Query?,
    effects: @escaping @Sendable (Query) -> Events
  ) -> Self where Events.Element == Event, Events.Failure == Never {
    lens(kind: "lensing", query, .restartOnEveryState) { query in
      .sequence { effects(query) }
    }
  }

  /// Runs an effect for the current non-nil query of the state; a query different from the
  /// previous one cancels the running effect and starts a new one; an equal one changes
  /// nothing; a nil query cancels it.
  ///
  /// ```swift
  /// .lensingSkippingRepeated(state: \.authenticatingCredentials) { credentials in
  ///   do { return .authenticationResult(.success(try await api.authenticate(credentials))) }
  ///   catch { return .authenticationResult(.failure(AuthError(error))) }
  /// }
  /// ```
  ///
  /// An effect that completed is not started again while the query stays equal; the query
  /// must become nil or different first.
  ///
  /// - Complexity: O(1) per reduced event, plus `query` and one `==`.
  /// - Note: Isolation: `query` runs on the system's host; see `Feedback`.
  /// - Note: Allocations: one task per new query.
  public static func lensingSkippingRepeated<Query: Sendable & Equatable>(
    state query: @escaping @Sendable (State) -> Query?,
    effects: @escaping @Sendable (Query) async -> Event?
  ) -> Self {
    lens(kind: "lensingSkippingRepeated", query, .restartWhenChanged(==)) { query in
      .function { await effects(query) }
    }
  }

  /// Sequence form of `lensingSkippingRepeated(state:effects:)`.
  ///
  /// - Complexity: as the function form, plus O(1) per element fed back.
  /// - Note: Isolation: the sequence is made and iterated on the system's host.
  /// - Note: Allocations: one task per launch.
  public static func lensingSkippingRepeated<
    Query: Sendable & Equatable, Events: AsyncSequence & SendableMetatype
  >(
    state query: @escaping @Sendable (State) -> Query?,
    effects: @escaping @Sendable (Query) -> Events
  ) -> Self where Events.Element == Event, Events.Failure == Never {
    lens(kind: "lensingSkippingRepeated", query, .restartWhenChanged(==)) { query in
      .sequence { effects(query) }
    }
  }

  /// The machinery shared by the state-driven kinds.
  static func lens<Query: Sendable>(
    kind: String, _ query: @escaping @Sendable (State) -> Query?,
    _ policy: @autoclosure @escaping @Sendable () -> LensMachine<Query>.Policy,
    describesQuery: Bool = true, effect: @escaping @Sendable (Query) -> Effect<Event>
  ) -> Self {
    Feedback(kind: kind) { _ in
      LensReactor(
        machine: LensMachine(policy: policy()), query: query, describesQuery: describesQuery,
        effect: effect)
    }
  }
}

/// Carries out a `LensMachine` for one feedback in one system.
final class LensReactor<State: Sendable, Event: Sendable, Query: Sendable>: Reactor<State, Event> {
  private var machine: LensMachine<Query>
  private let query: @Sendable (State) -> Query?
  private let effect: @Sendable (Query) -> Effect<Event>
  private let describesQuery: Bool

  init(
    machine: LensMachine<Query>, query: @escaping @Sendable (State) -> Query?,
    describesQuery: Bool, effect: @escaping @Sendable (Query) -> Effect<Event>
  ) {
    self.machine = machine
    self.query = query
    self.describesQuery = describesQuery
    self.effect = effect
  }

  override func start(_ state: State, _ commands: inout EffectCommands<Event>) {
    apply(query(state), &commands)
  }

  override func react(to event: Event, in state: State, _ commands: inout EffectCommands<Event>) {
    apply(query(state), &commands)
  }

  override func observe(_ state: State, _ commands: inout EffectCommands<Event>) {
    apply(query(state), &commands)
  }

  override func ended(_ serial: UInt64) { machine.ended(serial) }

  private func apply(_ query: Query?, _ commands: inout EffectCommands<Event>) {
    let step = machine.observe(query)
    if let serial = step.cancel { commands.cancel(serial) }
    if let (serial, query) = step.start {
      commands.launch(serial, for: describesQuery ? query : nil, effect(query))
    }
  }
}
