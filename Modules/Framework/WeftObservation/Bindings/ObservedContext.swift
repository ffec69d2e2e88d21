import Observation
import WeftContexts
import WeftCore

/// A MainActor `Observable` model of a `ClientContext`: views read its client's state per
/// property (as `ObservedState`), and forms bind two-way **through the context**, which asks
/// the client — the model never mutates client state itself.
///
/// ```swift
/// let profile = ObservedContext(ProfileContext(client: client, in: app))
/// profile.name                                                    // tracked read
/// let name = profile.bind(\.name)                                 // one update per set
/// let age = profile.bind(\.age) { (0...150).contains($0) ? nil : "must be 0...150" }
/// let query = profile.bind(\.query, debouncedFor: .milliseconds(300), clock: clock)
/// ```
///
/// The bindings are WeftContexts' own (`ClientContext.bind`), with tracked reads: a binding's
/// readers are invalidated when the client's value changes, when a debounced binding's
/// pending value changes, and when a validated binding's failure changes — never otherwise.
///
/// - Complexity: reads as `ObservedState`; each binding write costs what the context's
///   binding costs (one client update, or one timer for a debounced write).
/// - Note: Isolation: `@MainActor`.
/// - Note: Allocations: the model and its `ObservedState`; per binding, the context's
///   binding and two closures.
@MainActor
@dynamicMemberLookup
public final class ObservedContext<C: Client>: Observable {
  /// The context writes go through. The model keeps it alive, as a view keeps its context.
  public let context: ClientContext<C>
  /// The per-property model of the context's primary client.
  public let state: ObservedState<C.State>

  private let registrar = ObservationRegistrar()
  private var nextEdit = 0

  /// Makes a model of `context`.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: the model and its `ObservedState`.
  public init(_ context: ClientContext<C>) {
    self.context = context
    self.state = ObservedState(context.client.cell)
  }

  /// The client's value at `keyPath`, tracked (see `ObservedState`).
  ///
  /// - Complexity: as `ObservedState.subscript(dynamicMember:)`.
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: any KeyPath<C.State, Value> & Sendable
  ) -> Value {
    state[keyPath]
  }

  /// The client's value at the whole key path `keyPath`, tracked (see `ObservedState`).
  ///
  /// - Complexity: as `ObservedState.subscript(_:)`.
  public subscript<Value: Equatable & Sendable>(_ keyPath: any KeyPath<C.State, Value> & Sendable)
    -> Value
  {
    state[keyPath]
  }

  // MARK: Bindings

  /// A binding to the value at `keyPath`: tracked reads; each `set` is one client update,
  /// asked through the context (`ClientContext.bind(_:)`).
  ///
  /// > Note: A write shows once it reached the client (after `await context.waitForWrites()`, or
  /// > the client's delivery). A text field that must echo keystrokes at once wants the
  /// > debounced binding, which shows its pending value.
  ///
  /// - Complexity: `get` as a tracked read; `set` O(1) here plus one client update.
  /// - Note: Isolation: MainActor; the write runs on the client's actor.
  /// - Note: Allocations: the context's binding and two closures.
  public func bind<Value: Equatable & Sendable>(
    _ keyPath: any WritableKeyPath<C.State, Value> & Sendable
  ) -> ContextBinding<Value> {
    let writer = context.bind(keyPath)
    let state = self.state
    return ContextBinding(get: { state[keyPath] }, set: writer.set)
  }

  /// A validated binding to the value at `keyPath` (`ClientContext.bind(_:validate:)`): a
  /// value `validate` refuses is not written, and the failure is kept in the returned
  /// object's tracked `failure`.
  ///
  /// - Complexity: one `validate` call per write, plus one client update if valid.
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: the returned object and the context's validated binding.
  public func bind<Value: Equatable & Sendable>(
    _ keyPath: any WritableKeyPath<C.State, Value> & Sendable,
    validate: @escaping (Value) -> String?
  ) -> ObservedValidatedBinding<Value> {
    let state = self.state
    return ObservedValidatedBinding(
      context.bind(keyPath, validate: validate), read: { state[keyPath] })
  }

  /// A debounced binding to the value at `keyPath`
  /// (`ClientContext.bind(_:debouncedFor:clock:)`): `get` shows the pending value at once;
  /// the last value of a quiet `window` is written as one client update.
  ///
  /// Readers are invalidated when the pending value changes (each keystroke that changes
  /// what is shown) and when the client's value changes (the write landing, or anyone
  /// else's write); a `set` of the value already shown invalidates nothing.
  ///
  /// - Complexity: `set` O(1) plus one sleep registration on `clock`.
  /// - Note: Isolation: MainActor; the timer is a MainActor task.
  /// - Note: Allocations: the context's debounced binding and two closures; one timer task
  ///   per `set`.
  public func bind<Value: Equatable & Sendable>(
    _ keyPath: any WritableKeyPath<C.State, Value> & Sendable,
    debouncedFor window: Duration, clock: any Clock<Duration>
  ) -> ContextBinding<Value> {
    let debounced = context.bind(keyPath, debouncedFor: window, clock: clock)
    let edit = \ObservedContext<C>.[edit: nextEdit]
    nextEdit += 1
    let state = self.state
    return ContextBinding(
      get: {
        _ = state[keyPath]  // the client's value: its change invalidates too
        self.registrar.access(self, keyPath: edit)
        return debounced.get()
      },
      set: { value in
        let shown = debounced.get()
        debounced.set(value)
        guard debounced.get() != shown else { return }
        self.registrar.withMutation(of: self, keyPath: edit) {}
      })
  }

  /// The identity a debounced binding's pending value is tracked under.
  nonisolated subscript(edit index: Int) -> Int { index }
}
