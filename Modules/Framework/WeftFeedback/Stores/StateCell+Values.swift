import WeftCore

extension StateCell {
  /// An async sequence of a selected value: the current value first, then each different
  /// value a commit produces, in version order.
  ///
  /// Use it to feed one system's state into another as events, so that "became
  /// authenticated" happens once, not once per commit:
  ///
  /// ```swift
  /// .just(effects: auth.cell.values(of: \.self).map(LoginEvent.authStateChanged))
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: the value to follow.
  ///   - buffering: what a slow consumer keeps; by default every distinct value, so a
  ///     transient value is never skipped.
  /// - Complexity: O(1) per commit that changes the value.
  /// - Note: Isolation: values are yielded on the committing isolation; the stream ends
  ///   when its consumer stops.
  /// - Note: Allocations: one subscription and one stream.
  public func values<Value: Equatable & Sendable>(
    of keyPath: any KeyPath<State, Value> & Sendable,
    buffering: ChangeBuffering = .unbounded
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Value.self, bufferingPolicy: buffering.policy(for: Value.self))
    let last = Locked<LastValue<Value>?>(nil)
    let yield: @Sendable (UInt64, Value) -> Void = { version, value in
      last.withLock { last in
        if let previous = last, previous.version >= version || previous.value == value { return }
        last = LastValue(version: version, value: value)
        continuation.yield(value)
      }
    }
    // Subscribe first, then read: a commit in between is delivered, never lost, and the
    // version check keeps the order.
    let subscription = observeSynchronously(keyPath) { yield($0.version, $0.value) }
    let snapshot = self.snapshot
    yield(snapshot.version, snapshot.state[keyPath: keyPath])
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }
}

/// The last value a `values(of:)` stream yielded, and its version.
private struct LastValue<Value: Sendable>: Sendable {
  let version: UInt64
  let value: Value
}
