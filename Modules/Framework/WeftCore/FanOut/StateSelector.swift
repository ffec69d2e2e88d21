/// What a subscriber depends on: a key path, or a named projection, of the state to an
/// `Equatable` value.
///
/// Subscribers with equal selectors share one group and one comparison per commit, so a
/// thousand views on `\.summary` cost one comparison, not a thousand.
///
/// ```swift
/// let byKeyPath = StateSelector<AppState, Int>(\.count)
/// let byName = StateSelector<AppState, Bool>(id: "hasUnread") { $0.inbox.contains { !$0.read } }
/// ```
///
/// > Important: Equal-value suppression is the default: a commit whose projected value is
/// > `==` to the previous one delivers nothing to that selector. `deliveringEveryCommit()`
/// > opts out (every commit is delivered, changed or not).
///
/// - Complexity: the projection runs once per commit per distinct selector.
/// - Note: Isolation: projections must be pure and `Sendable`; they run on the committing
///   actor and, for coalesced delivery, on the delivering actor.
public struct StateSelector<State: Sendable, Value: Equatable & Sendable>: Sendable {
  /// The identity that groups subscribers: equal ids share one comparison.
  public let id: SelectorID
  @usableFromInline let project: @Sendable (State) -> Value
  /// Projects `state`, compares with the value at `last` and, if it differs (or duplicates
  /// are not removed), stores it there and returns `true`. Made by the `@inlinable`
  /// initializers, so it is specialized for the concrete types where the selector is built:
  /// the engine's per-commit comparison then costs one indirect call, with no generic value
  /// witnesses and no exclusivity checks.
  @usableFromInline let refresh: @Sendable (State, UnsafeMutablePointer<Value>, Bool) -> Bool
  /// Calls a synchronous batch with the value at `last`: built where the selector is made, so
  /// it is specialized for `Value` (no generic-metadata lookups per commit for `Change`).
  @usableFromInline let deliverSync:
    @Sendable (UnsafeMutablePointer<Value>, UInt64, ContiguousArray<RegistrationBase>) -> UInt64
  /// The MainActor job's part for one group: projects the snapshot's state, compares with
  /// the value the MainActor subscribers last received (at `lastMain`; `nil` before the
  /// first delivery) unless `force`, and calls the closure batch, then the observer batch.
  /// Returns (delivered, skipped). Built where the selector is made, like `deliverSync`, so
  /// the job runs specialized code.
  @usableFromInline let deliverMain:
    @MainActor @Sendable (
      Snapshot<State>, ContiguousArray<RegistrationBase>, ContiguousArray<RegistrationBase>,
      UnsafeMutablePointer<Value?>, Bool
    ) -> (UInt64, UInt64)
  /// Whether a commit that leaves the value `==` to the previous one is suppressed.
  public let removesDuplicates: Bool

  /// Selects the value at `keyPath`; its identity is the key path.
  ///
  /// A key path to a stored property of a struct (or a chain of them) is read at its byte
  /// offset, found once here; other key paths go through the standard library's key-path
  /// projection on every commit.
  @inlinable
  public init(_ keyPath: any KeyPath<State, Value> & Sendable) {
    let id = SelectorID(keyPath: keyPath)
    if let offset = MemoryLayout<State>.offset(of: keyPath) {
      // `offset(of:)` is non-nil only for a key path to inline, directly addressable storage
      // of `State` (stored properties of structs, no classes, no computed properties), so a
      // `Value` is stored, initialized and aligned at that offset of every `State`; `load`
      // copies it (retaining what it holds), as the key-path read would. Reading it there
      // costs a load, where the standard library's projection looks up generic metadata on
      // every call (≈ 20% of a one-subscriber commit, measured).
      self.init(
        id: id,
        project: { state in
          withUnsafeBytes(of: state) { $0.load(fromByteOffset: offset, as: Value.self) }
        }, removesDuplicates: true)
    } else {
      self.init(id: id, project: { $0[keyPath: keyPath] }, removesDuplicates: true)
    }
  }

  /// Selects a computed value; `id` names it so subscribers with the same id share it.
  ///
  /// - Parameters:
  ///   - id: any `Hashable` name; two selectors with equal ids must compute the same value.
  ///   - project: a pure function of the state.
  @inlinable
  public init(id: some Hashable & Sendable, _ project: @escaping @Sendable (State) -> Value) {
    self.init(id: SelectorID(name: id), project: project, removesDuplicates: true)
  }

  @inlinable
  init(id: SelectorID, project: @escaping @Sendable (State) -> Value, removesDuplicates: Bool) {
    self.id = id
    self.project = project
    self.removesDuplicates = removesDuplicates
    self.refresh = { state, last, removesDuplicates in
      let value = project(state)
      if removesDuplicates && value == last.pointee { return false }
      last.pointee = value
      return true
    }
    self.deliverSync = { last, version, batch in
      let change = Change(value: last.pointee, version: version)
      return batch.forEachActive(as: SyncRegistration<Value>.self) { $0.callback(change) }
    }
    self.deliverMain = { @MainActor snapshot, batch, observers, lastMain, force in
      let value = project(snapshot.state)
      if !force, removesDuplicates, let previous = lastMain.pointee, previous == value {
        return (0, UInt64(batch.count + observers.count))
      }
      lastMain.pointee = value
      let change = Change(value: value, version: snapshot.version)
      // Two monomorphic walks, not one walk that asks each registration its kind: a branch
      // per subscriber cost the closure walk ≈ 25% (the gate's delivery ratio, 7 runs each).
      var delivered = batch.forEachActive(as: MainRegistration<Value>.self) {
        $0.callback(change)
      }
      if !observers.isEmpty {
        delivered &+= observers.forEachActive(as: MainActorObserver<Value>.self) {
          $0.receive(change)
        }
      }
      return (delivered, 0)
    }
  }

  /// The same selector, delivering on every commit even when the value is unchanged.
  @inlinable
  public func deliveringEveryCommit() -> Self {
    Self(id: id, project: project, removesDuplicates: false)
  }

  /// A selector of a value derived from this one, named by this selector's id and `id`.
  @inlinable
  public func map<Other: Equatable & Sendable>(
    id: some Hashable & Sendable, _ transform: @escaping @Sendable (Value) -> Other
  ) -> StateSelector<State, Other> {
    let project = self.project
    return StateSelector<State, Other>(
      id: SelectorID(composing: self.id, with: SelectorID(name: id)),
      project: { transform(project($0)) }, removesDuplicates: removesDuplicates)
  }
}

/// The identity of a selector: a key path, or a caller-given hashable name.
public struct SelectorID: Hashable, Sendable, CustomStringConvertible {
  private let base: AnyHashableSendable

  @usableFromInline init(keyPath: some Hashable & Sendable) { base = AnyHashableSendable(keyPath) }
  @usableFromInline init(name: some Hashable & Sendable) { base = AnyHashableSendable(name) }
  @usableFromInline init(composing first: SelectorID, with second: SelectorID) {
    base = AnyHashableSendable(Pair(first: first, second: second))
  }

  struct Pair: Hashable, Sendable {
    let first: SelectorID
    let second: SelectorID
  }

  /// A readable form for reports: the key path or the name.
  public var description: String { "\(base.base)" }
}

/// A type-erased `Hashable & Sendable` value.
struct AnyHashableSendable: Hashable, Sendable {
  // `AnyHashable` is not `Sendable`, but it is built only from a `Hashable & Sendable` value
  // (the initializer below is the only way in) and never mutated, so sharing it is safe.
  nonisolated(unsafe) let base: AnyHashable

  init(_ value: some Hashable & Sendable) { base = AnyHashable(value) }
}
