extension Feedback {
  /// Runs one effect per key of a dictionary the state maps to: a key that appears starts
  /// its effect with the key's value, the key's later values reach that same effect as an
  /// `AsyncStream`, and a key that leaves cancels only its own effect.
  ///
  /// ```swift
  /// // One upload per queued item; a new progress target reaches the running upload.
  /// .forEach(state: \.queuedUploads) { id, upload, later in
  ///   for await changed in later { await uploads.retarget(id, changed) }
  ///   return .uploadFinished(id)
  /// }.named("uploads")
  /// ```
  ///
  /// This is RxFeedback's keyed `react(requests:)`. A changed value does not restart the
  /// effect: it is yielded to `later`, every change in order (the stream buffers what the
  /// effect has not read yet). An equal value is not yielded again. A key that leaves
  /// finishes its `later` stream and cancels its effect; events the effect emits afterwards
  /// are dropped. A key that comes back starts a fresh effect with a fresh stream. A key
  /// whose effect completed is not started again while it stays, and its later values go
  /// nowhere. An equal dictionary changes nothing.
  ///
  /// - Parameters:
  ///   - entries: the dictionary of a state, usually a key path; the initial state counts.
  ///   - effects: the effect for one key: its key, its value when it appeared, and its later
  ///     values; an async function returning the event to feed back.
  /// - Complexity: per reduced event, `entries` plus one pass over the new dictionary (a
  ///   hash look-up and one `==` per key); only when a key left, one scan of the r keys
  ///   present before (no hashing) to find it; O(1) per key that appeared, left or changed.
  /// - Note: Isolation: `entries` runs on the system's host, and later values are yielded
  ///   there; the effect starts there, as for every kind.
  /// - Note: Allocations: one task and one stream per key that appears; a changed value is
  ///   buffered in its stream until read (amortized); none for keys that stay unchanged,
  ///   and none when the dictionary is equal.
  public static func forEach<Key: Hashable & Sendable, Value: Equatable & Sendable>(
    state entries: @escaping @Sendable (State) -> [Key: Value],
    effects:
      @escaping @Sendable (_ key: Key, _ value: Value, _ later: AsyncStream<Value>) async
      -> Event?
  ) -> Self {
    Feedback(kind: "forEach") { _ in
      KeyedReactor(entries: entries) { key, value, later in
        .function { await effects(key, value, later) }
      }
    }
  }

  /// Sequence form of the keyed `forEach(state:effects:)`: each key's sequence is fed back
  /// until it ends or the key leaves the dictionary.
  ///
  /// ```swift
  /// // One timer per active session, ticking at the session's current interval.
  /// .forEach(state: \.activeSessions) { id, interval, later in
  ///   ticks(every: interval, retimedBy: later).map { _ in Event.tick(id) }
  /// }
  /// ```
  ///
  /// - Complexity: as the function form, plus O(1) per event fed back.
  /// - Note: Isolation: the sequences are made and iterated on the system's host.
  /// - Note: Allocations: one task and one stream per key that appears.
  public static func forEach<
    Key: Hashable & Sendable, Value: Equatable & Sendable,
    Events: AsyncSequence & SendableMetatype
  >(
    state entries: @escaping @Sendable (State) -> [Key: Value],
    effects:
      @escaping @Sendable (_ key: Key, _ value: Value, _ later: AsyncStream<Value>) ->
      Events
  ) -> Self where Events.Element == Event, Events.Failure == Never {
    Feedback(kind: "forEach") { _ in
      KeyedReactor(entries: entries) { key, value, later in
        .sequence { effects(key, value, later) }
      }
    }
  }
}

/// Carries out the keyed `forEach` for one feedback in one system: one launch per key
/// present, its later values yielded to the launch's stream, cancelled when the key leaves.
/// The bookkeeping is `ElementLaunches`, shared with the set form.
final class KeyedReactor<
  State: Sendable, Event: Sendable, Key: Hashable & Sendable, Value: Equatable & Sendable
>: StateReactor<State, Event, [Key: Value]> {
  /// What a present key carries: its last value, and its stream while its effect runs.
  struct Slot {
    var value: Value
    var later: AsyncStream<Value>.Continuation?
  }

  private let effect: @Sendable (Key, Value, AsyncStream<Value>) -> Effect<Event>
  private var launches = ElementLaunches<Key, (key: Key, value: Value), Slot>()

  init(
    entries: @escaping @Sendable (State) -> [Key: Value],
    effect: @escaping @Sendable (Key, Value, AsyncStream<Value>) -> Effect<Event>
  ) {
    self.effect = effect
    super.init(value: entries)
  }

  /// The effect ended on its own: nothing reads its stream any more, so later values are
  /// no longer buffered.
  override func ended(_ serial: UInt64) {
    launches.ended(serial) { slot in
      slot.later?.finish()
      slot.later = nil
    }
  }

  override func apply(_ next: [Key: Value], _ commands: inout EffectCommands<Event>) {
    launches.update(
      next, key: \.key,
      stay: { slot, entry in
        guard slot.value != entry.value else { return }
        slot.value = entry.value
        slot.later?.yield(entry.value)
      },
      cancel: { serial, slot in
        slot.later?.finish()
        commands.cancel(serial)
      },
      launch: { serial, entry in
        let (later, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        commands.launch(serial, for: entry.key, effect(entry.key, entry.value, later))
        return Slot(value: entry.value, later: continuation)
      })
  }
}
