extension Feedback {
  /// Runs and cancels effects by id, as each event says: the rule sees every reduced event
  /// with the state it produced and answers with an `EffectRequest` (or nil for nothing).
  ///
  /// ```swift
  /// .cancellable { event, state in
  ///   switch event {
  ///   case .factButtonTapped:
  ///     .run(id: "fact") { [count = state.count] in .factResponse(await facts.fetch(count)) }
  ///   case .cancelButtonTapped, .stepperChanged: .cancel(id: "fact")
  ///   default: nil
  ///   }
  /// }.named("fact")
  /// ```
  ///
  /// No field of the state need exist only to cancel: the feedback keeps the effects in
  /// flight per id, and forgets each one when it ends. `run(id:cancelInFlight: true)`
  /// restarts the effect even when the input is equal (the same location tapped twice),
  /// which the state-driven rules cannot say: `lensingSkippingRepeated` never restarts an
  /// equal query. Use the state-driven rules when the state already says what should run
  /// (a query, a set of ids); use this one when an event says it (a button, a cancel).
  ///
  /// - Complexity: O(1) per reduced event plus `rule`, and O(k) per cancellation, k =
  ///   effects in flight under that id.
  /// - Note: Isolation: `rule` runs on the system's host; see `Feedback`.
  /// - Note: Allocations: one task per launch; a small table of the effects in flight.
  public static func cancellable<ID: Hashable & Sendable>(
    _ rule: @escaping @Sendable (Event, State) -> EffectRequest<ID, Event>?
  ) -> Self {
    Feedback(kind: "cancellable") { _ in CancellableReactor(rule: rule) }
  }
}

/// What one event asks of a `cancellable` feedback: effects to run under an id, ids to
/// cancel, in order.
///
/// ```swift
/// .run(id: Search.weather, cancelInFlight: true) { await weather(for: location) }
/// .cancel(id: Search.request)
/// .cancel(id: Search.request).merging(.run(id: Search.weather) { … })
/// ```
///
/// - Complexity: O(1) to make; O(n) to merge, n = steps.
/// - Note: Isolation: a `Sendable` value.
/// - Note: Allocations: the steps array.
public struct EffectRequest<ID: Hashable & Sendable, Event: Sendable>: Sendable {
  enum Step: Sendable {
    case run(ID, cancelInFlight: Bool, Effect<Event>)
    case cancel(ID)
  }

  let steps: [Step]

  /// Runs `operation` under `id` and feeds back the event it returns (nil: none).
  ///
  /// - Parameter cancelInFlight: cancel the effects already running under `id` first, so
  ///   that the new one replaces them (TCA's `cancelInFlight: true`); otherwise they keep
  ///   running beside it, and `cancel(id:)` cancels them all.
  public static func run(
    id: ID, cancelInFlight: Bool = false, _ operation: @escaping @Sendable () async -> Event?
  ) -> Self {
    Self(steps: [.run(id, cancelInFlight: cancelInFlight, .function(operation))])
  }

  /// Runs the sequence `make` returns under `id`, feeding back each element (a timer, a
  /// stream of progress).
  ///
  /// ```swift
  /// .run(id: "timer", cancelInFlight: true) {
  ///   clock.timer(interval: .seconds(1)).map { _ in .timerTicked }
  /// }
  /// ```
  public static func run<Events: AsyncSequence & SendableMetatype>(
    id: ID, cancelInFlight: Bool = false, _ make: @escaping @Sendable () -> Events
  ) -> Self where Events.Element == Event, Events.Failure == Never {
    Self(steps: [.run(id, cancelInFlight: cancelInFlight, .sequence(make))])
  }

  /// Cancels every effect running under `id` (nothing if none is).
  public static func cancel(id: ID) -> Self { Self(steps: [.cancel(id)]) }

  /// This request's steps, then `other`'s.
  public func merging(_ other: Self) -> Self { Self(steps: steps + other.steps) }
}

/// Launches and cancels effects by id (`cancellable`), remembering which launches run under
/// which id until they end.
final class CancellableReactor<State: Sendable, Event: Sendable, ID: Hashable & Sendable>:
  Reactor<State, Event>
{
  private let rule: @Sendable (Event, State) -> EffectRequest<ID, Event>?
  private var inFlight: [ID: [UInt64]] = [:]
  private var idOfLaunch: [UInt64: ID] = [:]
  private var lastSerial: UInt64 = 0

  init(rule: @escaping @Sendable (Event, State) -> EffectRequest<ID, Event>?) {
    self.rule = rule
  }

  override func react(to event: Event, in state: State, _ commands: inout EffectCommands<Event>) {
    guard let request = rule(event, state) else { return }
    for step in request.steps {
      switch step {
      case .cancel(let id):
        cancel(id, &commands)
      case .run(let id, let cancelInFlight, let effect):
        if cancelInFlight { cancel(id, &commands) }
        lastSerial += 1
        inFlight[id, default: []].append(lastSerial)
        idOfLaunch[lastSerial] = id
        commands.launch(lastSerial, for: id, effect)
      }
    }
  }

  private func cancel(_ id: ID, _ commands: inout EffectCommands<Event>) {
    for serial in inFlight.removeValue(forKey: id) ?? [] {
      idOfLaunch[serial] = nil
      commands.cancel(serial)
    }
  }

  override func ended(_ serial: UInt64) {
    guard let id = idOfLaunch.removeValue(forKey: serial) else { return }
    inFlight[id]?.removeAll { $0 == serial }
    if inFlight[id]?.isEmpty == true { inFlight[id] = nil }
  }
}
