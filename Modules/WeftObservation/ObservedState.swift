import Observation
import WeftCore

/// A MainActor `Observable` model of one state cell — a client's, a `Store`'s, a
/// `FeedbackService`'s or a `ClientContext`'s client — that a view reads property by
/// property, with invalidation per property.
///
/// ```swift
/// let inbox = ObservedState(inboxClient)            // on the MainActor
/// withObservationTracking {
///   print(inbox.unread)                             // interest in `unread` only
/// } onChange: {
///   print("re-render")                              // once, when `unread` changes
/// }
/// await inboxClient.update { $0.isSyncing = true }  // invalidates nothing
/// await inboxClient.update { $0.unread += 1 }       // invalidates the tracker above
/// ```
///
/// The first read of a key path (or a `Selector`) subscribes it with WeftCore's coalesced
/// MainActor delivery: one subscription per property, never a task per change. A delivery
/// whose value equals what the model holds is dropped, so **a commit that changes nothing a
/// tracker read — including one that writes equal values — invalidates nothing**, and a
/// burst of commits is one MainActor job that invalidates each affected tracker once and
/// leaves the burst's last value to read.
///
/// > Important: Values are the ones WeftCore last delivered on the MainActor (as with
/// > `ClientContext.state`): after `await client.update { … }` returns on the MainActor
/// > they are current (read-your-writes); a commit made on the MainActor itself (a `Store`
/// > dispatch) shows after its delivery job, or at once through `binding(_:set:)`, which
/// > delivers the owner's write before it returns. A property read for the first time is
/// > read from the latest commit, so two properties may be one pending job apart.
///
/// # Performance
/// A read is one dictionary lookup by key path and one `ObservationRegistrar.access`. Each
/// distinct property read costs one subscription (≈ 115 bytes plus its entry) and one
/// projection and comparison per commit, shared with every other subscriber of the same
/// selector. A commit that changes a read property costs one MainActor job per burst, one
/// `==` against the held value, and one `withMutation` that reaches exactly the trackers
/// that read it. What is slow: reading many distinct key paths of a large state (each is
/// projected on every commit) and expensive `Selector` projections.
///
/// - Note: Isolation: `@MainActor`. Making one from a nonisolated synchronous context is a
///   compile error.
/// - Note: Allocations: the model; per distinct property read, one entry, one model key
///   path and one subscription, made on its first read.
@MainActor
@dynamicMemberLookup
public final class ObservedState<State: Sendable>: Observable {
  /// The cell this model reads.
  public let cell: StateCell<State>

  private let registrar = ObservationRegistrar()
  private var byKeyPath: [AnyKeyPath: Slot] = [:]
  private var bySelector: [AnyHashable: Slot] = [:]
  private var nextSlot = 0
  private var invalidations: UInt64 = 0

  /// Makes a model of `cell`. Nothing is subscribed until a property is read.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: the model.
  public init(_ cell: StateCell<State>) {
    self.cell = cell
  }

  /// Makes a model of `client`'s state.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  public convenience init<C: Client>(_ client: C) where C.State == State {
    self.init(client.cell)
  }

  // MARK: Reading

  /// The value at `keyPath`, tracked: reading it inside `withObservationTracking` (or a
  /// SwiftUI body) registers interest in this property only.
  ///
  /// > Important: `model.address.city` reads `address` through the model and then `city`
  /// > from the value: it is invalidated by any change of `address`. To track `city` alone,
  /// > read the whole key path: `model[\.address.city]`.
  ///
  /// - Complexity: O(k) for the key path's hash, k = its components; the first read of a
  ///   key path also subscribes it (O(1) amortized).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: none after the first read of `keyPath`.
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: any KeyPath<State, Value> & Sendable
  ) -> Value {
    let slot = byKeyPath[keyPath as AnyKeyPath] ?? subscribe(keyPath)
    // The slot stored under a `KeyPath<State, Value>` was made by `subscribe` below for
    // that very key path, so it is a `Slot.Typed<Value>` (equal key paths have equal types).
    let typed = unsafeDowncast(slot, to: Typed<Value>.self)
    registrar.access(self, keyPath: typed.modelKeyPath)
    return typed.value
  }

  /// The value at `keyPath`, tracked by the whole key path: `model[\.address.city]` is
  /// invalidated only when `city` changes, not by other changes of `address`.
  ///
  /// - Complexity: as `subscript(dynamicMember:)`.
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: none after the first read of `keyPath`.
  public subscript<Value: Equatable & Sendable>(_ keyPath: any KeyPath<State, Value> & Sendable)
    -> Value
  {
    self[dynamicMember: keyPath]
  }

  /// The value of a computed property `project` named `id` (such as `hasUnread`), tracked
  /// like a stored one: one subscription per id (shared, like any WeftCore `Selector`, with
  /// every subscriber using the same id), invalidating readers only when the projected
  /// value changes.
  ///
  /// ```swift
  /// let hasUnread = inbox.value(id: "hasUnread") { $0.unread > 0 }
  /// ```
  ///
  /// - Parameters:
  ///   - id: the selector's name; two projections with equal ids must compute the same
  ///     value of the same type.
  ///   - project: a pure function of the state; it runs once per commit while observed.
  /// - Complexity: O(1) expected; the first read subscribes the selector.
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: none after the first read of `id` (a non-capturing closure
  ///   literal allocates nothing).
  public func value<Value: Equatable & Sendable, ID: Hashable & Sendable>(
    id: ID, _ project: @escaping @Sendable (State) -> Value
  ) -> Value {
    let key = AnyHashable(id)
    let slot: Slot
    if let found = bySelector[key] {
      slot = found
    } else {
      slot = makeSlot(Selector(id: id, project), project)
      bySelector[key] = slot
    }
    guard let typed = slot as? Typed<Value> else {
      preconditionFailure(
        "selector '\(id)' was first read as \(type(of: slot)), now as \(Value.self): "
          + "projections with equal ids must have the same type")
    }
    registrar.access(self, keyPath: typed.modelKeyPath)
    return typed.value
  }

  // MARK: Introspection

  /// Properties (key paths and named projections) this model has subscribed: one subscription each.
  ///
  /// - Complexity: O(1).
  public var observedPropertyCount: Int { byKeyPath.count + bySelector.count }

  /// Property changes this model has published (`withMutation` calls) since it was made.
  /// Equal-value deliveries are not counted: they publish nothing.
  ///
  /// - Complexity: O(1).
  public var publishedChangeCount: UInt64 { invalidations }

  /// Cancels every subscription: the model keeps its last values and publishes nothing
  /// more. Reading a property afterwards subscribes it again.
  ///
  /// - Complexity: O(p), p = observed properties.
  /// - Note: Isolation: MainActor.
  public func stopObserving() {
    for slot in byKeyPath.values { slot.subscription?.cancel() }
    for slot in bySelector.values { slot.subscription?.cancel() }
    byKeyPath.removeAll()
    bySelector.removeAll()
  }

  // MARK: Subscribing

  private func subscribe<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable
  ) -> Slot {
    let slot = makeSlot(Selector(keyPath)) { $0[keyPath: keyPath] }
    byKeyPath[keyPath as AnyKeyPath] = slot
    return slot
  }

  /// Subscribes first and reads second, so a commit landing in between is delivered, never
  /// lost (WeftCore forces a joining subscriber's next delivery).
  private func makeSlot<Value: Equatable & Sendable>(
    _ selector: Selector<State, Value>, _ project: (State) -> Value
  ) -> Slot {
    let index = nextSlot
    nextSlot += 1
    let slot = Typed<Value>(
      modelKeyPath: \ObservedState<State>.[slot: index], value: project(cell.state))
    slot.subscription = cell.observeOnMainActor(selector) { [weak self, weak slot] change in
      guard let self, let slot else { return }
      self.publish(change.value, to: slot)
    }
    slot.value = project(cell.state)
    return slot
  }

  /// Stores `value` and invalidates the slot's readers, only if it differs from the value
  /// held: deliveries that a joining subscriber forced, or that carry a value a tracker
  /// never saw change, publish nothing.
  private func publish<Value: Equatable & Sendable>(_ value: Value, to slot: Typed<Value>) {
    guard slot.value != value else { return }
    invalidations &+= 1
    registrar.withMutation(of: self, keyPath: slot.modelKeyPath) { slot.value = value }
  }

  /// The identity each property is tracked under: `\ObservedState.[slot: n]`. Observation
  /// uses key paths only as identities, so one integer per property is enough.
  nonisolated subscript(slot index: Int) -> Int { index }
}

extension ObservedState {
  /// One observed property: its subscription and the last value delivered.
  @MainActor
  class Slot {
    var subscription: Subscription?
  }

  /// A slot holding a value of type `Value`.
  @MainActor
  final class Typed<Value: Equatable & Sendable>: Slot {
    let modelKeyPath: KeyPath<ObservedState<State>, Int>
    var value: Value

    init(modelKeyPath: KeyPath<ObservedState<State>, Int>, value: Value) {
      self.modelKeyPath = modelKeyPath
      self.value = value
    }
  }
}
