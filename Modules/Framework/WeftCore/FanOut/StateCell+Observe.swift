/// Where a new subscriber wants its deliveries, with its callback.
enum DeliveryTarget<Value>: Sendable {
  case synchronous(@Sendable (Change<Value>) -> Void)
  case mainActor(@MainActor @Sendable (Change<Value>) -> Void)
  case actor(any Actor, @Sendable (isolated any Actor, Change<Value>) -> Void)
  case observer(MainActorObserver<Value>)
}

extension StateCell {
  /// Calls `body` synchronously, on the committing isolation, inside each commit that
  /// changes the selected value.
  ///
  /// Subscribe first, then read `snapshot` if you need the current value: a commit that
  /// lands in between is then delivered, never lost.
  ///
  /// - Returns: the subscription; delivery stops when it is cancelled or released.
  /// - Complexity: O(1) amortized to subscribe and to cancel.
  /// - Note: Isolation: `body` runs on the owner's isolation, in version order.
  /// - Note: Allocations: a registration and a token; a group for a new selector.
  public func observeSynchronously<Value: Equatable & Sendable>(
    _ selector: StateSelector<State, Value>,
    _ body: @escaping @Sendable (Change<Value>) -> Void
  ) -> StateSubscription {
    register(selector, .synchronous(body))
  }

  /// Key-path form of `observeSynchronously(_:_:)`.
  public func observeSynchronously<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable,
    _ body: @escaping @Sendable (Change<Value>) -> Void
  ) -> StateSubscription {
    observeSynchronously(StateSelector(keyPath), body)
  }

  /// Calls `body` on the MainActor when the selected value changed. Deliveries are
  /// coalesced: one MainActor job per burst of commits delivers the latest value once to
  /// each affected subscriber (intermediate versions may be skipped, never the last one).
  ///
  /// - Returns: the subscription; delivery stops when it is cancelled or released.
  /// - Complexity: O(1) amortized to subscribe and to cancel.
  /// - Note: Isolation: `body` runs on the MainActor, in version order.
  /// - Note: Allocations: a registration and a token; a group for a new selector.
  public func observeOnMainActor<Value: Equatable & Sendable>(
    _ selector: StateSelector<State, Value>,
    _ body: @escaping @MainActor @Sendable (Change<Value>) -> Void
  ) -> StateSubscription {
    register(selector, .mainActor(body))
  }

  /// Delivers to `observer` on the MainActor, like `observeOnMainActor(_:_:)`: the observer
  /// is its own registration, so a subscriber costs one heap block for the delivery to read
  /// instead of two (see `MainActorObserver`).
  ///
  /// - Precondition: `observer` was never attached before (an observer attaches once).
  /// - Returns: the subscription; delivery stops when it is cancelled or released.
  /// - Complexity: O(1) amortized.
  /// - Note: Isolation: `observer.receive` runs on the MainActor, one job per burst.
  /// - Note: Allocations: the `StateSubscription` (32 bytes) and a list slot.
  public func observeOnMainActor<Value: Equatable & Sendable>(
    _ selector: StateSelector<State, Value>, observer: MainActorObserver<Value>
  ) -> StateSubscription {
    precondition(
      !observer.attached.exchange(true, ordering: .acquiringAndReleasing),
      "this MainActorObserver is attached already: an observer attaches once; make a new one")
    return register(selector, .observer(observer))
  }

  /// Key-path form of `observeOnMainActor(_:observer:)`.
  public func observeOnMainActor<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable, observer: MainActorObserver<Value>
  ) -> StateSubscription {
    observeOnMainActor(StateSelector(keyPath), observer: observer)
  }

  /// Key-path form of `observeOnMainActor(_:_:)`.
  public func observeOnMainActor<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<State, Value> & Sendable,
    _ body: @escaping @MainActor @Sendable (Change<Value>) -> Void
  ) -> StateSubscription {
    observeOnMainActor(StateSelector(keyPath), body)
  }

  /// Calls `body` on `actor` when the selected value changed, coalesced like MainActor
  /// delivery: one job on `actor` per burst.
  ///
  /// - Returns: the subscription; delivery stops when it is cancelled or released.
  /// - Complexity: O(1) amortized to subscribe; O(a) to cancel, a = distinct actors
  ///   observing this selector.
  /// - Note: Isolation: `body` runs isolated to `actor`, in version order.
  public func observe<Value: Equatable & Sendable, Target: Actor>(
    _ selector: StateSelector<State, Value>, on actor: Target,
    _ body: @escaping @Sendable (isolated Target, Change<Value>) -> Void
  ) -> StateSubscription {
    let erased: @Sendable (isolated any Actor, Change<Value>) -> Void = { isolation, change in
      (isolation as! Target).assumeIsolated { body($0, change) }
    }
    return register(selector, .actor(actor, erased))
  }

  /// Key-path form of `observe(_:on:_:)`.
  public func observe<Value: Equatable & Sendable, Target: Actor>(
    _ keyPath: any KeyPath<State, Value> & Sendable, on actor: Target,
    _ body: @escaping @Sendable (isolated Target, Change<Value>) -> Void
  ) -> StateSubscription {
    observe(StateSelector(keyPath), on: actor, body)
  }
}
