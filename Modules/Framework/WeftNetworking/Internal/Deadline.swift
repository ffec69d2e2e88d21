/// Runs `operation` against a deadline `timeout` from now on `clock`: returns its result, or
/// `nil` if the deadline came first (the operation is then cancelled and awaited).
///
/// - Complexity: O(1) besides the operation: two child tasks.
/// - Note: Isolation: the operation runs in a child task of the caller.
/// - Note: Allocations: a task group with two child tasks.
func withDeadline<Result: Sendable>(
  _ timeout: Duration, on clock: any Clock<Duration>,
  operation: @escaping @Sendable () async throws -> Result
) async throws -> Result? {
  try await withThrowingTaskGroup(of: Result?.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      try await clock.sleep(for: timeout)
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { return nil }
    return first
  }
}

/// A stopwatch on any clock: call the returned closure for the time elapsed since this call.
func startStopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
  let start = clock.now
  return { start.duration(to: clock.now) }
}

/// Suspends until the calling task is cancelled, without touching any clock, then throws
/// `CancellationError`. What "never answers" means in a simulation.
func suspendUntilCancelled() async throws {
  let (stream, continuation) = AsyncStream<Never>.makeStream()
  for await _ in stream {}
  withExtendedLifetime(continuation) {}
  throw CancellationError()
}
