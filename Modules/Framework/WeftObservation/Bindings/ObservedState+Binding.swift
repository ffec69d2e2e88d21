import WeftContexts
import WeftCore

extension ObservedState {
  /// A two-way binding whose reads are tracked and whose writes go to the owner: `set`
  /// asks the owner (dispatch an action, send an update) and never touches the state.
  ///
  /// ```swift
  /// let login = ObservedState(store)
  /// let email = login.binding(\.email) { store.dispatch(.emailChanged($0)) }
  /// email.set("ada@example.com")   // reduced by the store; readers of `email` invalidated
  /// ```
  ///
  /// After `set` calls the owner, the model delivers whatever the owner already committed
  /// on the MainActor (a `Store` reduces before `dispatch` returns), so `get()` right after
  /// `set` reads the written value. An owner on another actor commits later; its value
  /// arrives with its delivery job (after `await`ing the owner on the MainActor, at once).
  ///
  /// - Complexity: `get` as a property read; `set` the owner's cost plus O(g + k) for the
  ///   delivery, g = this cell's changed selectors, k = their MainActor subscribers (O(1)
  ///   when nothing is pending).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: two closures.
  public func binding<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable, set: @escaping (Value) -> Void
  ) -> ContextBinding<Value> {
    let cell = self.cell
    return ContextBinding(
      get: { self[dynamicMember: keyPath] },
      set: { value in
        set(value)
        cell.deliverPendingMainActorChanges()
      })
  }
}
