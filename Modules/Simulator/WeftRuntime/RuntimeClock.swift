import Synchronization

/// A clock that reads and sleeps on the deterministic runtime's virtual time exactly: `now`
/// is `DeterministicRuntime.now`, and a sleep hands the runtime its exact delay. In a simulator
/// executable (which links CDeterministicWorld) `ContinuousClock` is exact too, since its reads
/// are virtual; where they cannot be (Apple platforms, `WEFT_REAL_CLOCKS=1`) its deadlines
/// reach the runtime as instants of real time that it maps back to the nearest round duration
/// (`VirtualDelay`), a guess that a sleep preempted on a loaded machine can miss, and this
/// clock is the exact one. Off the runtime it is the continuous clock.
///
/// ```swift
/// let clock = RuntimeClock()
/// try await clock.sleep(for: .milliseconds(1_234))   // exactly 1,234 ms of virtual time
/// ```
///
/// - Note: Isolation: `Sendable`; any task.
/// - Complexity: `now` O(1); a sleep one timer of the runtime.
public struct RuntimeClock: Clock, Sendable {
  /// A point in virtual time: its offset from the runtime's start (off the runtime, from
  /// the clock's first use in the process).
  ///
  /// - Note: Isolation: a `Sendable` value.
  /// - Complexity: O(1).
  public struct Instant: InstantProtocol, Sendable {
    /// Virtual time since the start.
    public var offset: Duration

    /// Makes an instant at `offset`.
    ///
    /// - Complexity: O(1).
    public init(offset: Duration) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    public func duration(to other: Instant) -> Duration { other.offset - offset }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  /// Makes the clock.
  ///
  /// - Complexity: O(1).
  public init() {}

  /// Sleeps in progress off the runtime, on every `RuntimeClock` of the process.
  private static let sleeping = Atomic<Int>(0)

  /// How many sleeps on a `RuntimeClock` are in progress off the runtime (on threads): what a
  /// best-effort settle on threads waits for (0 on the runtime, whose timers it owns).
  ///
  /// - Complexity: O(1).
  public static var sleepsInProgress: Int { sleeping.load(ordering: .relaxed) }

  /// Real time's origin for the clock off the runtime.
  private static let origin = ContinuousClock.now

  public var now: Instant {
    if let runtime = DeterministicRuntime.current { return Instant(offset: runtime.now) }
    return Instant(offset: Self.origin.duration(to: .now))
  }

  public var minimumResolution: Duration { .nanoseconds(1) }

  /// Suspends until `deadline`: on the runtime, one timer set `deadline - now` ahead in
  /// virtual time; a cancelled sleep ends at once with `CancellationError` (its timer fires
  /// later and does nothing).
  ///
  /// - Throws: `CancellationError` when the task is cancelled.
  /// - Complexity: O(log t) to set the timer, t = timers.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    guard let runtime = DeterministicRuntime.current else {
      Self.sleeping.add(1, ordering: .relaxed)
      defer { Self.sleeping.subtract(1, ordering: .relaxed) }
      try await ContinuousClock().sleep(
        until: Self.origin.advanced(by: deadline.offset), tolerance: tolerance)
      return
    }
    let delay = VirtualDelay.nanoseconds(deadline.offset - runtime.now)
    try Task.checkCancellation()
    guard delay > 0 else { return }
    let wake = SleepWake()
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation {
        (continuation: UnsafeContinuation<Void, any Error>) in
        guard wake.arm(continuation) else { return }
        runtime.loop.schedule(.body { wake.resume(throwing: nil) }, lane: .global, after: delay)
      }
    } onCancel: {
      wake.resume(throwing: CancellationError())
    }
  }
}

/// Resumes a sleeping task once: by its timer, or by cancellation, whichever comes first.
private final class SleepWake: Sendable {
  private enum State: Sendable {
    case waiting
    case armed(UnsafeContinuation<Void, any Error>)
    case done
  }

  // The continuation crosses threads only under the lock.
  private let state = RuntimeLock<State>(.waiting)

  /// Stores the continuation; false (and resumes it) when cancellation came first.
  func arm(_ continuation: UnsafeContinuation<Void, any Error>) -> Bool {
    let cancelledFirst = state.withLock { state -> Bool in
      if case .done = state { return true }
      state = .armed(continuation)
      return false
    }
    if cancelledFirst { continuation.resume(throwing: CancellationError()) }
    return !cancelledFirst
  }

  /// Resumes the continuation once (`nil`: the timer fired).
  func resume(throwing error: (any Error)?) {
    let continuation = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
      defer { state = .done }
      if case .armed(let continuation) = state { return continuation }
      return nil
    }
    guard let continuation else { return }
    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
  }
}
