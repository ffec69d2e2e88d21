extension Feedback {
  /// Runs one effect per element of a set the state maps to: an element that appears
  /// starts its effect, an element that leaves cancels only its own effect, and elements
  /// that stay are neither cancelled nor restarted.
  ///
  /// ```swift
  /// .forEach(state: \.visibleThumbnailURLs) { url in
  ///   do { return .thumbnailLoaded(url, try await images.load(url)) }
  ///   catch { return .thumbnailFailed(url) }
  /// }.named("thumbnails")
  /// ```
  ///
  /// This is RxFeedback's `react(requests: Set)`. An equal set changes nothing. An element
  /// whose effect completed is not started again while it stays in the set; it must leave
  /// and come back. Events of an effect whose element left are dropped, even if the effect
  /// ignores cancellation and returns anyway.
  ///
  /// - Parameters:
  ///   - elements: the set of a state, usually a key path; the initial state counts.
  ///   - effects: the effect for one element: an async function returning the event to feed
  ///     back.
  /// - Complexity: per reduced event, `elements` plus O(n + r) hash look-ups, n = elements in
  ///   the new set, r = elements running before; launching or cancelling is O(1) per element
  ///   that appeared or left.
  /// - Note: Isolation: `elements` runs on the system's host; see `Feedback`.
  /// - Note: Allocations: one task per element that appears; none for elements that stay,
  ///   and none when the set is unchanged.
  public static func forEach<Element: Hashable & Sendable>(
    state elements: @escaping @Sendable (State) -> Set<Element>,
    effects: @escaping @Sendable (Element) async -> Event?
  ) -> Self {
    Feedback(kind: "forEach") { _ in
      SetReactor(elements: elements) { element in .function { await effects(element) } }
    }
  }

  /// Sequence form of `forEach(state:effects:)`: each element's sequence is fed back until
  /// it ends or the element leaves the set.
  ///
  /// - Complexity: as the function form, plus O(1) per event fed back.
  /// - Note: Isolation: the sequences are made and iterated on the system's host.
  /// - Note: Allocations: one task per element that appears.
  public static func forEach<
    Element: Hashable & Sendable, Events: AsyncSequence & SendableMetatype
  >(
    state elements: @escaping @Sendable (State) -> Set<Element>,
    effects: @escaping @Sendable (Element) -> Events
  ) -> Self where Events.Element == Event, Events.Failure == Never {
    Feedback(kind: "forEach") { _ in
      SetReactor(elements: elements) { element in .sequence { effects(element) } }
    }
  }
}

/// Carries out `forEach` for one feedback in one system: one launch per element present,
/// cancelled when the element leaves.
final class SetReactor<State: Sendable, Event: Sendable, Element: Hashable & Sendable>: Reactor<
  State, Event
>
{
  private let elements: @Sendable (State) -> Set<Element>
  private let effect: @Sendable (Element) -> Effect<Event>
  /// Each element of the last set, with the serial of its launch.
  private var present: [Element: UInt64] = [:]
  /// Launches not yet ended; only these are ever cancelled.
  private var running: Set<UInt64> = []
  private var lastSerial: UInt64 = 0

  init(
    elements: @escaping @Sendable (State) -> Set<Element>,
    effect: @escaping @Sendable (Element) -> Effect<Event>
  ) {
    self.elements = elements
    self.effect = effect
  }

  override func start(_ state: State, _ commands: inout EffectCommands<Event>) {
    apply(elements(state), &commands)
  }

  override func react(to event: Event, in state: State, _ commands: inout EffectCommands<Event>) {
    apply(elements(state), &commands)
  }

  override func ended(_ serial: UInt64) { running.remove(serial) }

  private func apply(_ next: Set<Element>, _ commands: inout EffectCommands<Event>) {
    // Leavers first, in a stable order (by launch), so logs and tests are deterministic.
    if present.count > next.count || present.keys.contains(where: { !next.contains($0) }) {
      let leaving = present.filter { !next.contains($0.key) }.sorted { $0.value < $1.value }
      for (element, serial) in leaving {
        present[element] = nil
        if running.remove(serial) != nil { commands.cancel(serial) }
      }
    }
    guard present.count < next.count else { return }
    for element in next where present[element] == nil {
      lastSerial += 1
      present[element] = lastSerial
      running.insert(lastSerial)
      commands.launch(lastSerial, for: element, effect(element))
    }
  }
}
