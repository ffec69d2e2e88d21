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
  /// - Complexity: per reduced event, `elements` plus one pass over the new set (a hash
  ///   look-up per element); only when an element left, one scan of the r elements present
  ///   before (no hashing) to find it; launching or cancelling is O(1) per element that
  ///   appeared or left.
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
/// cancelled when the element leaves. The bookkeeping is `ElementLaunches`, shared with the
/// keyed form.
final class SetReactor<State: Sendable, Event: Sendable, Element: Hashable & Sendable>:
  StateReactor<State, Event, Set<Element>>
{
  private let effect: @Sendable (Element) -> Effect<Event>
  private var launches = ElementLaunches<Element, Element, Void>()

  init(
    elements: @escaping @Sendable (State) -> Set<Element>,
    effect: @escaping @Sendable (Element) -> Effect<Event>
  ) {
    self.effect = effect
    super.init(value: elements)
  }

  override func ended(_ serial: UInt64) { launches.ended(serial) }

  override func apply(_ next: Set<Element>, _ commands: inout EffectCommands<Event>) {
    launches.update(
      next, key: { $0 }, stay: { _, _ in },
      cancel: { serial, _ in commands.cancel(serial) },
      launch: { serial, element in commands.launch(serial, for: element, effect(element)) })
  }
}
