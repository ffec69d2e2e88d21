import WeftCore

extension Feedback {
  /// Runs a child feature's feedbacks once per element of an `IdentifiedArray` in the state:
  /// each element gets its own instance of every child feedback, which sees that element as
  /// its state and its events, addressed by id, as its events (TCA's `forEach`).
  ///
  /// ```swift
  /// enum Event { case todo(id: Todo.ID, Todo.Event), … }
  /// .forEach(
  ///   elements: \.todos,
  ///   extract: { if case .todo(let id, let event) = $0 { (id, event) } else { nil } },
  ///   embed: Event.todo,
  ///   feedbacks: Todo.feedbacks)
  /// ```
  ///
  /// Rules, per element:
  /// - an element that appears (the initial state counts) starts its child feedbacks, in
  ///   order, on its state;
  /// - an event `extract` addresses to it is shown to its feedbacks with its new state, as
  ///   in a system of its own; an event for an id that is not present is ignored;
  /// - a parent event that changes the element (`!=`) without addressing it shows its
  ///   state-driven feedbacks (`lensing…`, `whenBecomesTrue`, `forEach`) the new state, and
  ///   event-driven ones (`cancellable`, `extracting`, `imperative`) nothing;
  /// - an element that leaves cancels every effect of its feedbacks; their late events are
  ///   dropped; an element that comes back starts fresh feedbacks.
  ///
  /// The child's effects emit `embed(id, event)`. In activity records and `TestStore`
  /// messages each launch's detail names the element and the child feedback
  /// (`"<id> timer"`).
  ///
  /// - Parameters:
  ///   - elements: the collection in the state, usually a key path.
  ///   - extract: the element an event is for, and the child event it carries.
  ///   - embed: the parent event for a child event of an element.
  ///   - feedbacks: the child feature's feedbacks.
  /// - Complexity: per reduced event, `elements` plus one pass over the collection: a look-up
  ///   and one `==` per element, and a look-up per element present before; the child rules
  ///   run only for the addressed element and the elements that changed.
  /// - Note: Isolation: everything runs on the system's host, as for every kind; children's
  ///   effects start there.
  /// - Note: Allocations: per element that appears, one reactor per child feedback; per
  ///   launch, one task and a table entry.
  public static func forEach<Element: Identifiable & Equatable & Sendable, ElementEvent: Sendable>(
    elements: @escaping @Sendable (State) -> IdentifiedArray<Element>,
    extract: @escaping @Sendable (Event) -> (id: Element.ID, event: ElementEvent)?,
    embed: @escaping @Sendable (Element.ID, ElementEvent) -> Event,
    feedbacks: [Feedback<Element, ElementEvent>]
  ) -> Self where Element.ID: Sendable {
    Feedback(kind: "forEach(elements:)") { dispatch in
      ElementsReactor(
        elements: elements, extract: extract, embed: embed, feedbacks: feedbacks,
        dispatch: dispatch)
    }
  }
}
