import WeftCore

/// Reducers made from other reducers: a child feature's reducer run on one element of an
/// `IdentifiedArray`, and several reducers run in turn. The results are plain
/// `(inout State, Event) -> Void` functions, as pure as the reducers they are made of.
///
/// ```swift
/// static let reduce = Reduce.combine(
///   Reduce.forEach(
///     \State.todos,
///     extract: { if case .todo(let id, let event) = $0 { (id, event) } else { nil } },
///     reduce: Todo.reduce),
///   reduceList)   // the list's own events
/// ```
///
/// - Complexity: see each function.
/// - Note: Isolation: the reducers are `@Sendable` functions; a system calls them on its host.
public enum Reduce {
  /// A reducer that applies `reduce` to the element an event addresses, in place, and
  /// ignores other events and events for an id that is not present.
  ///
  /// - Complexity: O(1) expected (a look-up by id) plus `reduce`.
  /// - Note: Allocations: none of its own.
  public static func forEach<
    State, Event, Element: Identifiable & Sendable, ElementEvent: Sendable
  >(
    _ elements: any WritableKeyPath<State, IdentifiedArray<Element>> & Sendable,
    extract: @escaping @Sendable (Event) -> (id: Element.ID, event: ElementEvent)?,
    reduce: @escaping @Sendable (inout Element, ElementEvent) -> Void
  ) -> @Sendable (inout State, Event) -> Void where Element.ID: Sendable {
    { state, event in
      guard let (id, elementEvent) = extract(event) else { return }
      state[keyPath: elements].update(id: id) { reduce(&$0, elementEvent) }
    }
  }

  /// A reducer that runs `reducers` in order on each event.
  ///
  /// - Complexity: the sum of the reducers'.
  /// - Note: Allocations: none of its own.
  public static func combine<State, Event>(
    _ reducers: (@Sendable (inout State, Event) -> Void)...
  ) -> @Sendable (inout State, Event) -> Void {
    { state, event in
      for reduce in reducers { reduce(&state, event) }
    }
  }
}
