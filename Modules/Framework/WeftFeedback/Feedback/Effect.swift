/// A type-erased effect: an operation that runs on the system's host and emits events.
///
/// `emit` returns false once the effect is no longer wanted (cancelled, or the system is
/// gone); the operation stops then. The event it returns is its last one: the system records
/// the effect finished before reducing it, so a state change caused by an effect's own result
/// never counts as cancelling that effect.
///
/// - Note: Isolation: the operation runs isolated to the host passed in; the async
///   functions it awaits run wherever they are isolated.
struct Effect<Event: Sendable>: Sendable {
  let run: @Sendable (_ isolation: isolated (any Actor)?, _ emit: (Event) -> Bool) async -> Event?

  /// An effect that iterates the sequence `make` returns, emitting each element.
  static func sequence<Events: AsyncSequence & SendableMetatype>(
    _ make: @escaping @Sendable () -> Events
  ) -> Effect where Events.Element == Event, Events.Failure == Never {
    Effect { isolation, emit in
      var iterator = make().makeAsyncIterator()
      while !Task.isCancelled, let event = await iterator.next(isolation: isolation) {
        guard emit(event) else { return nil }
      }
      return nil
    }
  }

  /// An effect that awaits `operation` and emits its event, if any.
  static func function(_ operation: @escaping @Sendable () async -> Event?) -> Effect {
    Effect { _, _ in await operation() }
  }
}
