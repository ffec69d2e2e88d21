/// An actor that owns exactly one domain state and publishes it through a `StateCell`.
///
/// Conform an actor and give it a cell; every operation comes from the protocol:
///
/// ```swift
/// actor CounterClient: Client {
///   nonisolated let cell = StateCell(Counter(), name: "Counter")
///
///   func increment() { update { $0.value += 1 } }
/// }
///
/// let counter = CounterClient()
/// await counter.update { $0.value = 10; $0.label = "ten" }   // one commit
/// counter.snapshot.state.value                               // 10, no await
/// let token = counter.observeOnMainActor(\.value) { print($0.value) }
/// ```
///
/// # Performance
/// `update` costs one copy of the state, your closure, and one fan-out (see `StateCell`).
/// Reads of `snapshot` take one uncontended lock and never wait for the actor.
///
/// - Note: Isolation: mutations run on the client's actor; reads and subscriptions are
///   `nonisolated` and safe from anywhere.
public protocol Client: Actor, StateOwner {
  /// The cell holding the state (`State`, the domain state the client owns). Declare it
  /// `nonisolated let`.
  nonisolated var cell: StateCell<State> { get }
}

extension Client {
  /// Runs `body` on the state as one transaction: one commit, one version bump, one
  /// fan-out, however many fields change. If `body` throws, nothing is committed.
  ///
  /// - Complexity: O(s + k) after `body`, s = distinct selectors, k = subscribers whose
  ///   value changed.
  /// - Note: Isolation: runs on the client's actor. `body` is `@Sendable` so that any
  ///   isolation may pass one; inside the actor, `cell.update` takes a non-`Sendable` body
  ///   that may read the actor's other properties.
  @discardableResult
  public func update<Result: Sendable, Failure: Error>(
    _ body: @Sendable (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try cell.update(body)
  }

  /// Commits the state of `snapshot` as a new version (a rollback never lowers versions).
  public func restore(_ snapshot: Snapshot<State>) { cell.restore(snapshot) }
}
