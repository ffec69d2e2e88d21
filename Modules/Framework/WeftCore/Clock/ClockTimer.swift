extension Clock where Duration == Swift.Duration {
  /// A sequence that ticks every `interval` on this clock, on a fixed grid from the first
  /// call to `next()` (start + interval, start + 2 × interval, …), until its task is
  /// cancelled.
  ///
  /// ```swift
  /// for await _ in clock.timer(interval: .seconds(1)) { await send(.timerTicked) }
  /// ```
  ///
  /// On a `TestClock`, `advance(by: .seconds(5))` delivers five ticks, each once the
  /// previous one's work has asked for the next.
  ///
  /// - Complexity: O(1) per tick plus the clock's sleep.
  /// - Note: Isolation: a `Sendable` value; ticks are awaited on the iterating task.
  /// - Note: Allocations: the clock's, per sleep.
  public func timer(interval: Duration) -> ClockTimer<Self> {
    ClockTimer(clock: self, interval: interval)
  }
}

/// The ticks of `Clock.timer(interval:)`: each element is the instant the tick was due.
///
/// - Complexity: O(1) per tick plus the clock's sleep.
/// - Note: Isolation: a `Sendable` value; its iterator belongs to one task.
/// - Note: Allocations: none of its own.
public struct ClockTimer<C: Clock>: AsyncSequence, Sendable where C.Duration == Duration {
  public typealias Element = C.Instant
  public typealias Failure = Never

  let clock: C
  let interval: Duration

  public func makeAsyncIterator() -> Iterator {
    Iterator(clock: clock, interval: interval)
  }

  /// Sleeps until the next tick of the grid; nil once the task is cancelled.
  public struct Iterator: AsyncIteratorProtocol {
    let clock: C
    let interval: Duration
    var last: C.Instant?

    public mutating func next() async -> C.Instant? {
      let deadline = (last ?? clock.now).advanced(by: interval)
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        return nil  // cancelled: the sequence ends
      }
      last = deadline
      return deadline
    }
  }
}
