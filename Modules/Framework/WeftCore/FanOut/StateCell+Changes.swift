/// How `changes` buffers snapshots for a consumer that is slower than the commits.
public enum ChangeBuffering: Sendable, Equatable {
  /// Keep only the newest snapshot (the default): a slow consumer skips versions, never the
  /// last one.
  case latest
  /// Keep the newest `n` snapshots.
  case newest(Int)
  /// Keep the oldest `n` snapshots, dropping newer ones when full.
  case oldest(Int)
  /// Keep every snapshot.
  case unbounded

  func policy<Element>(for _: Element.Type) -> AsyncStream<Element>.Continuation.BufferingPolicy {
    switch self {
    case .latest: .bufferingNewest(1)
    case .newest(let count): .bufferingNewest(max(1, count))
    case .oldest(let count): .bufferingOldest(max(1, count))
    case .unbounded: .unbounded
    }
  }
}

extension StateCell {
  /// An async sequence of snapshots: the current one first, then one per commit, buffered
  /// as `buffering` says.
  ///
  /// ```swift
  /// for await snapshot in cell.changes() { render(snapshot.state) }
  /// ```
  ///
  /// The subscription ends when the consuming task is cancelled or stops iterating.
  ///
  /// - Complexity: O(1) per commit per stream.
  /// - Note: Isolation: values are yielded from the owner's isolation, in version order.
  public func changes(buffering: ChangeBuffering = .latest) -> AsyncStream<Snapshot<State>> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Snapshot<State>.self, bufferingPolicy: buffering.policy(for: Snapshot<State>.self))
    let registration = storage.withLock { storage -> RegistrationBase in
      let group: EveryCommitGroup<State>
      if let existing = storage.everyCommit {
        group = existing
      } else {
        group = EveryCommitGroup<State>()
        group.owner = self
        storage.everyCommit = group
      }
      let registration = SnapshotRegistration<State>({ continuation.yield($0) }, group: group)
      group.sync.append(registration)
      group.subscriberCount.add(1, ordering: .relaxed)
      // Yielded under the lock so that no commit can deliver a newer snapshot first.
      continuation.yield(storage.snapshot)
      return registration
    }
    let subscription = StateSubscription(registration)
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }
}
