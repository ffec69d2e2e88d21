import Foundation

/// Runs `body`, failing (not hanging) if it has not finished after `bound` of runnable time: a
/// correctness bound for "cancellation / timeouts end the wait", far above the expected time.
///
/// The bound counts only time in which this process could run tasks. A ticker wakes every
/// 100 ms and credits at most 200 ms per wake-up, so while the cooperative pool is saturated
/// (a whole suite starts at once on a 2-core machine, and a body of ten actor hops can wait
/// seconds behind hundreds of ready tests) the bound stretches instead of firing: a plain
/// wall-clock timer needs one hop to win the race, the body many.
@discardableResult
func bounded<T: Sendable>(
  _ bound: Duration = .seconds(20), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      let clock = ContinuousClock()
      var credited = Duration.zero
      var last = clock.now
      while credited < bound {
        try await Task.sleep(for: .milliseconds(100))
        let now = clock.now
        credited += min(now - last, .milliseconds(200))
        last = now
      }
      return nil
    }
    defer { group.cancelAll() }
    guard let result = try await group.next(), let value = result else {
      throw FixtureError("did not finish within \(bound) of runnable time")
    }
    return value
  }
}
