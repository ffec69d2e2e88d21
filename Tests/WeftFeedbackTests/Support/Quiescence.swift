import WeftCore

@testable import WeftFeedback

/// Knows when every running effect of a system is parked on the test clock, so a tick
/// driver can advance time at exactly the right moments, without `Task.yield()` loops.
///
/// Effects launched and not finished are counted from the system's effect observer; parked
/// ones are those sleeping through `sleep(for:)` whose deadline has not come and that were
/// not cancelled. Parked effects are a subset of running ones, so when the counts are equal
/// every running effect is parked and nothing can happen until time moves.
final class Quiescence: Sendable {
  private struct State {
    var active = 0
    var parked: [UInt64: TestClock.Instant] = [:]
    var nextID: UInt64 = 0
    var waiters: [CheckedContinuation<Void, Never>] = []

    var isSettled: Bool { active == parked.count }

    mutating func takeWaitersIfSettled() -> [CheckedContinuation<Void, Never>] {
      guard isSettled else { return [] }
      defer { waiters = [] }
      return waiters
    }
  }

  let clock: TestClock
  private let state = Locked(State())

  init(clock: TestClock) { self.clock = clock }

  /// Feed the system's effect observer through this.
  func observe(_ activity: EffectActivity) {
    update { state in
      switch activity.kind {
      case .scheduled: state.active += 1
      case .finished: state.active -= 1
      case .started, .cancelled: break
      }
    }
  }

  /// Sleeps on the test clock as a parked effect.
  func sleep(for duration: Duration) async throws {
    let (id, deadline) = update { state -> (UInt64, TestClock.Instant) in
      state.nextID += 1
      let deadline = clock.now.advanced(by: duration)
      if clock.now < deadline { state.parked[state.nextID] = deadline }
      return (state.nextID, deadline)
    }
    defer { unpark(id) }
    try await withTaskCancellationHandler {
      try await clock.sleep(until: deadline)
    } onCancel: {
      unpark(id)
    }
  }

  /// Moves the clock to `tick` seconds; sleepers that come due stop counting as parked
  /// first, so the next `settled()` waits for them.
  func advance(toTick tick: Int) async {
    let target = TestClock.Instant(offset: .seconds(tick))
    update { state in
      state.parked = state.parked.filter { $0.value > target }
    }
    await clock.advance(to: target)
  }

  /// Returns once every running effect is parked (or none runs). Re-checks after each
  /// wake-up: a count can hold for an instant in the middle of a host job.
  func settled() async {
    while !state.withLock({ $0.isSettled }) {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let ready = state.withLock { state -> Bool in
          if state.isSettled { return true }
          state.waiters.append(continuation)
          return false
        }
        if ready { continuation.resume() }
      }
    }
  }

  /// The current virtual tick.
  var tick: Int { Int(clock.now.offset.components.seconds) }

  private func unpark(_ id: UInt64) { update { _ = $0.parked.removeValue(forKey: id) } }

  private func update<Result>(_ body: (inout State) -> Result) -> Result {
    let (result, ready) = state.withLock { state in
      let result = body(&state)
      return (result, state.takeWaitersIfSettled())
    }
    for waiter in ready { waiter.resume() }
    return result
  }
}
