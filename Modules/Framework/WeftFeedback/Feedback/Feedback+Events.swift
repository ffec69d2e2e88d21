extension Feedback {
  /// Merges an async sequence of events into the loop: user actions, notifications, timers.
  ///
  /// ```swift
  /// .just(effects: logoutNotifications.map { _ in .userDidLogout })
  /// ```
  ///
  /// It starts once, when the system starts, and runs until the sequence ends or the system
  /// is torn down; state changes never cancel it.
  ///
  /// > Important: The sequence is iterated once, by one system. Give each system its own.
  ///
  /// - Complexity: O(1) per element, plus reducing it.
  /// - Note: Isolation: iterated on the system's host.
  /// - Note: Allocations: one task for the system's lifetime.
  public static func just<Events: AsyncSequence & Sendable>(
    effects events: Events
  ) -> Self where Events.Element == Event, Events.Failure == Never {
    just { events }
  }

  /// Form of `just(effects:)` that makes the sequence when the system starts, on its host,
  /// for sequences that are not `Sendable`.
  ///
  /// - Complexity: O(1) per element, plus reducing it.
  /// - Note: Isolation: `make` runs, and the sequence is iterated, on the system's host.
  /// - Note: Allocations: one task for the system's lifetime.
  public static func just<Events: AsyncSequence & SendableMetatype>(
    effects make: @escaping @Sendable () -> Events
  ) -> Self where Events.Element == Event, Events.Failure == Never {
    Feedback(kind: "just") { _ in SourceReactor(effect: .sequence(make)) }
  }

  /// Runs an effect for every reduced event from which `payload` extracts a value. Effects
  /// of earlier events keep running: this feedback never cancels one (only teardown does).
  ///
  /// ```swift
  /// .extracting(payload: { event in
  ///   guard case .action(.save(let draft)) = event else { return nil }
  ///   return draft
  /// }) { draft in
  ///   do { try await store.save(draft); return .saved } catch { return .saveFailed("\(error)") }
  /// }
  /// ```
  ///
  /// - Complexity: O(1) per reduced event, plus `payload`.
  /// - Note: Isolation: `payload` runs on the system's host; see `Feedback`.
  /// - Note: Allocations: one task per extracted payload.
  public static func extracting<Payload: Sendable>(
    payload: @escaping @Sendable (Event) -> Payload?,
    effects: @escaping @Sendable (Payload) async -> Event?
  ) -> Self {
    Feedback(kind: "extracting") { _ in
      ExtractReactor(payload: payload) { payload in .function { await effects(payload) } }
    }
  }

  /// Sequence form of `extracting(payload:effects:)`.
  ///
  /// - Complexity: as the function form, plus O(1) per element fed back.
  /// - Note: Isolation: the sequence is made and iterated on the system's host.
  /// - Note: Allocations: one task per launch.
  public static func extracting<Payload: Sendable, Events: AsyncSequence & SendableMetatype>(
    payload: @escaping @Sendable (Event) -> Payload?,
    effects: @escaping @Sendable (Payload) -> Events
  ) -> Self where Events.Element == Event, Events.Failure == Never {
    Feedback(kind: "extracting") { _ in
      ExtractReactor(payload: payload) { payload in .sequence { effects(payload) } }
    }
  }
}

/// Launches one effect when the system starts (`just`).
final class SourceReactor<State: Sendable, Event: Sendable>: Reactor<State, Event> {
  private let effect: Effect<Event>

  init(effect: Effect<Event>) { self.effect = effect }

  override func start(_ state: State, _ commands: inout EffectCommands<Event>) {
    commands.launch(1, for: nil, effect)
  }
}

/// Launches one effect per event with a payload (`extracting`).
final class ExtractReactor<State: Sendable, Event: Sendable, Payload: Sendable>: Reactor<
  State, Event
>
{
  private let payload: @Sendable (Event) -> Payload?
  private let effect: @Sendable (Payload) -> Effect<Event>
  private var lastSerial: UInt64 = 0

  init(
    payload: @escaping @Sendable (Event) -> Payload?,
    effect: @escaping @Sendable (Payload) -> Effect<Event>
  ) {
    self.payload = payload
    self.effect = effect
  }

  override func react(to event: Event, in state: State, _ commands: inout EffectCommands<Event>) {
    guard let payload = payload(event) else { return }
    lastSerial += 1
    commands.launch(lastSerial, for: payload, effect(payload))
  }
}
