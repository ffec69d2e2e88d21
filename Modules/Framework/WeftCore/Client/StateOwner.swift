/// Anything that owns one domain state in a `StateCell` — a `Client` actor, a WeftFeedback
/// store or service, a WeftContexts context — and so offers the cell's read and observe API
/// in one place: read `snapshot` and `state` without waiting, subscribe by key path or
/// selector on any isolation, stream the changes. Code that only reads and observes (the
/// Observation bridge, a view model) takes `some StateOwner` instead of one initializer per
/// kind of owner.
///
/// ```swift
/// func watchSteps(_ owner: some StateOwner<Dashboard>) -> StateSubscription {
///   owner.observeOnMainActor(\.steps) { print($0.value) }
/// }
/// ```
///
/// - Note: Isolation: `cell` and everything here are `nonisolated`: safe from anywhere;
///   writes stay the owner's own (`Client.update`, a store's actions).
/// - Complexity: each member costs what the `StateCell` member it forwards to costs.
public protocol StateOwner<State>: AnyObject, Sendable {
  /// The state the owner holds.
  associatedtype State: Sendable

  /// The cell holding the state.
  nonisolated var cell: StateCell<State> { get }
}

extension StateOwner {
  /// The latest committed snapshot, read without awaiting the actor.
  public nonisolated var snapshot: Snapshot<State> { cell.snapshot }

  /// The latest committed state, read without awaiting the actor.
  public nonisolated var state: State { cell.state }

  /// See `StateCell.observeSynchronously(_:_:)`.
  public nonisolated func observeSynchronously<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable,
    _ body: @escaping @Sendable (Change<Value>) -> Void
  ) -> StateSubscription {
    cell.observeSynchronously(keyPath, body)
  }

  /// See `StateCell.observeSynchronously(_:_:)`.
  public nonisolated func observeSynchronously<Value: Equatable & Sendable>(
    _ selector: StateSelector<State, Value>, _ body: @escaping @Sendable (Change<Value>) -> Void
  ) -> StateSubscription {
    cell.observeSynchronously(selector, body)
  }

  /// See `StateCell.observeOnMainActor(_:_:)`.
  public nonisolated func observeOnMainActor<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable,
    _ body: @escaping @MainActor @Sendable (Change<Value>) -> Void
  ) -> StateSubscription {
    cell.observeOnMainActor(keyPath, body)
  }

  /// See `StateCell.observeOnMainActor(_:_:)`.
  public nonisolated func observeOnMainActor<Value: Equatable & Sendable>(
    _ selector: StateSelector<State, Value>,
    _ body: @escaping @MainActor @Sendable (Change<Value>) -> Void
  ) -> StateSubscription {
    cell.observeOnMainActor(selector, body)
  }

  /// See `StateCell.observeOnMainActor(_:observer:)`.
  public nonisolated func observeOnMainActor<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable, observer: MainActorObserver<Value>
  ) -> StateSubscription {
    cell.observeOnMainActor(keyPath, observer: observer)
  }

  /// See `StateCell.observeOnMainActor(_:observer:)`.
  public nonisolated func observeOnMainActor<Value: Equatable & Sendable>(
    _ selector: StateSelector<State, Value>, observer: MainActorObserver<Value>
  ) -> StateSubscription {
    cell.observeOnMainActor(selector, observer: observer)
  }

  /// See `StateCell.observe(_:on:_:)`.
  public nonisolated func observe<Value: Equatable & Sendable, Target: Actor>(
    _ selector: StateSelector<State, Value>, on actor: Target,
    _ body: @escaping @Sendable (isolated Target, Change<Value>) -> Void
  ) -> StateSubscription {
    cell.observe(selector, on: actor, body)
  }

  /// See `StateCell.changes(buffering:)`.
  public nonisolated func changes(
    buffering: ChangeBuffering = .latest
  ) -> AsyncStream<Snapshot<State>> {
    cell.changes(buffering: buffering)
  }
}
