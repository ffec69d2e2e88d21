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
/// The first read of a key path (or a `StateSelector`) subscribes it with WeftCore's coalesced
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
/// distinct property read costs a slot (an `Observable` object with its own registrar), one
/// subscription (≈ 115 bytes plus its entry) and one projection and comparison per commit,
/// shared with every other subscriber of the same selector. The first read of a key path,
/// its selector and its delivery are `@inlinable`, so they are specialized for the caller's
/// concrete state and value types. A commit that changes a read property costs one MainActor job per burst, one
/// `==` against the held value, and one `withMutation` that reaches exactly the trackers
/// that read it. What is slow: reading many distinct key paths of a large state (each is
/// projected on every commit) and expensive `StateSelector` projections.
///
/// - Note: Isolation: `@MainActor`. Making one from a nonisolated synchronous context is a
///   compile error.
/// - Note: Allocations: the model; per distinct property read, one entry, one slot (the
///   `Observable` subject its readers track, with its own registrar) and one subscription,
///   made on its first read.
@MainActor
@dynamicMemberLookup
public final class ObservedState<State: Sendable>: Observable {
  /// The cell this model reads.
  public let cell: StateCell<State>

  @usableFromInline var byKeyPath: [AnyKeyPath: ObservedSlot] = [:]
  private var bySelector: [AnyHashable: ObservedSlot] = [:]
  /// One per slot. The model owns them (a slot does not), so releasing the model releases
  /// them, which cancels them, which releases the slots their deliveries hold.
  @usableFromInline var subscriptions: [StateSubscription] = []
  /// Changes published by slots that `stopObserving()` dropped.
  private var droppedSlotChanges: UInt64 = 0

  /// Makes a model of `cell`. Nothing is subscribed until a property is read.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: the model.
  public init(_ cell: StateCell<State>) {
    self.cell = cell
  }

  /// Makes a model of `owner`'s state: a `Client`, a WeftFeedback store or service, a
  /// WeftContexts context (its primary client's state) — anything that is a `StateOwner`.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: the model.
  public convenience init<Owner: StateOwner>(_ owner: Owner) where Owner.State == State {
    self.init(owner.cell)
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
  @inlinable
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: any KeyPath<State, Value> & Sendable
  ) -> Value {
    let slot = byKeyPath[keyPath as AnyKeyPath] ?? subscribe(keyPath)
    // The slot stored under a `KeyPath<State, Value>` was made by `subscribe` below for
    // that very key path, so it is an `ObservedValueSlot<Value>` (equal key paths have equal types).
    let typed = unsafeDowncast(slot, to: ObservedValueSlot<Value>.self)
    typed.track()
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
  /// like a stored one: one subscription per id (shared, like any WeftCore `StateSelector`, with
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
    let slot: ObservedSlot
    if let found = bySelector[key] {
      slot = found
    } else {
      slot = makeSlot(StateSelector(id: id, project), project)
      bySelector[key] = slot
    }
    guard let typed = slot as? ObservedValueSlot<Value> else {
      preconditionFailure(
        "selector '\(id)' was first read as \(type(of: slot)), now as \(Value.self): "
          + "projections with equal ids must have the same type")
    }
    typed.track()
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
  /// - Complexity: O(p), p = observed properties.
  public var publishedChangeCount: UInt64 {
    droppedSlotChanges + byKeyPath.values.reduce(0) { $0 + $1.changes }
      + bySelector.values.reduce(0) { $0 + $1.changes }
  }

  /// Cancels every subscription: the model keeps its last values and publishes nothing
  /// more. Reading a property afterwards subscribes it again.
  ///
  /// - Complexity: O(p), p = observed properties.
  /// - Note: Isolation: MainActor.
  public func stopObserving() {
    for subscription in subscriptions { subscription.cancel() }
    subscriptions.removeAll()
    droppedSlotChanges = publishedChangeCount
    byKeyPath.removeAll()
    bySelector.removeAll()
  }

  // MARK: Subscribing

  /// Inlinable with `makeSlot`, so the selector and its delivery are made — and specialized —
  /// where `State` and `Value` are concrete: WeftCore builds a selector's MainActor delivery
  /// where the selector is made.
  @inlinable
  func subscribe<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable
  ) -> ObservedSlot {
    let slot = makeSlot(StateSelector(keyPath)) { $0[keyPath: keyPath] }
    byKeyPath[keyPath as AnyKeyPath] = slot
    return slot
  }

  /// Subscribes first and reads second, so a commit landing in between is delivered, never
  /// lost (WeftCore forces a joining subscriber's next delivery).
  ///
  /// The delivery captures the slot strongly and nothing else: no `weak` capture, so neither
  /// the slot nor the model gets a side table, and their retains stay on the fast path.
  @inlinable
  func makeSlot<Value: Equatable & Sendable>(
    _ selector: StateSelector<State, Value>, _ project: (State) -> Value
  ) -> ObservedSlot {
    let slot = ObservedValueSlot<Value>(value: project(cell.state))
    subscriptions.append(
      cell.observeOnMainActor(selector) { [slot] change in slot.publish(change.value) })
    slot.value = project(cell.state)
    return slot
  }
}

/// One observed property of an `ObservedState`: the `Observable` subject its readers track
/// (each slot has its own registrar, so a change reaches exactly the trackers that read this
/// property) and how many changes it published. Not nested in the generic model, so its key
/// path below is a non-generic literal the runtime makes once.
@MainActor
@usableFromInline
class ObservedSlot: Observable {
  @usableFromInline let registrar = ObservationRegistrar()
  @usableFromInline var changes: UInt64 = 0
  /// The identity readers track: Observation uses key paths only as identities.
  nonisolated let tracked = 0

  /// The key path readers track, made once (a literal is re-instantiated through the
  /// runtime each time it is evaluated).
  @usableFromInline nonisolated static let trackedKeyPath:
    any KeyPath<ObservedSlot, Int> & Sendable =
      \ObservedSlot.tracked

  /// Registers the current tracker's interest in this property.
  ///
  /// - Complexity: one `ObservationRegistrar.access`.
  @usableFromInline init() {}

  @inlinable
  final func track() { registrar.access(self, keyPath: Self.trackedKeyPath) }
}

/// A slot holding a value of type `Value`.
@MainActor
@usableFromInline
final class ObservedValueSlot<Value: Equatable & Sendable>: ObservedSlot {
  @usableFromInline var value: Value

  @inlinable
  init(value: Value) { self.value = value }

  /// Stores `newValue` and invalidates the slot's readers, only if it differs from the value
  /// held: deliveries that a joining subscriber forced, or that carry a value a tracker never
  /// saw change, publish nothing.
  ///
  /// - Complexity: one `==`; when it differs, one `withMutation`.
  @inlinable
  func publish(_ newValue: Value) {
    guard value != newValue else { return }
    changes &+= 1
    registrar.withMutation(of: self as ObservedSlot, keyPath: ObservedSlot.trackedKeyPath) {
      value = newValue
    }
  }
}
