import WeftCore
import WeftDependencies
import WeftFeedback

/// Tests a feedback system exhaustively: send an event, assert the exact state change,
/// receive the events effects feed back, assert which effects started and stopped, and fail
/// if an effect is still running or an event was not received at the end.
///
/// ```swift
/// @MainActor @Test func login() async {
///   let clock = TestClock()
///   let store = TestStore(initial: AuthState.idle, reduce: AuthState.reduce,
///                         feedbacks: AuthState.feedbacks(api: .succeeding, clock: clock),
///                         failure: recordIssue)
///   store.send(.action(.login(username: "ada", password: "pw")),
///              effects: .started("authenticate")) {
///     $0 = .authenticating(Credentials(username: "ada", password: "pw"))
///   }
///   await clock.waitForSleepers(count: 1)
///   await clock.advance(by: .seconds(1))
///   await store.receive(.authenticationResult(.success("token"))) {
///     $0 = .authenticated("token")
///   }
///   await store.finish()
/// }
/// ```
///
/// Failures are reported through `failure`, at the line of the call that made the failing
/// expectation, with what happened and how to fix it. `exhaustivity: .off` checks only what
/// you assert.
///
/// Leftovers (events fed back and never received, effects still running) are reported by
/// `finish()`, at its line. A store released without `finish()` reports them from its
/// deinit, at the line that made the store. The deinit is not isolated: it runs
/// synchronously on the task that drops the last reference, normally the test's own task at
/// the end of the test's scope, so Swift Testing attributes the issue to that test (an
/// isolated deinit would hide the test's task-local context and the issue would belong to
/// no test). A store kept alive past its test, by a task or a cycle, reports when it finally
/// goes away, in no test or never; `finish()` avoids that.
///
/// > Important: Waits end on explicit signals: an event fed back, an effect finishing. The
/// > `timeout` is real time and only bounds a test that is already failing (an event that
/// > never comes); a passing test never waits for it.
///
/// # Performance
/// Each step renders values only when it fails. What is slow: a failing `receive` or
/// `finish` waits `timeout` before reporting.
///
/// - Complexity: each step costs what the system does, plus O(1) bookkeeping.
/// - Note: Isolation: `@MainActor`; the system runs on the MainActor, so `send` reduces
///   before it returns.
/// - Note: Allocations: a record per event and per effect step (tests only).
@MainActor
public final class TestStore<State: Equatable & Sendable, Event: Sendable> {
  /// The system under test, hosted on the MainActor.
  public let system: FeedbackSystem<State, Event>
  /// How strictly the store checks; may be changed between steps.
  public var exhaustivity: Exhaustivity
  /// How long `receive` and `finish` wait, in real time, before reporting a failure.
  public var timeout: Duration
  let tracker: TestStoreTracker<State, Event>
  let failure: @Sendable (TestFailure) -> Void
  let location: TestFailure.Location
  /// The state the test has asserted so far.
  var expected: State
  /// The clock the test advances, if given: it settles the effects `send` starts first.
  let clock: TestClock?
  /// The effects the current `send` started, until each first sleeps or ends.
  let freshWork = WakeGroup()
  /// Effects the test said it does not care about (`skipInFlightEffects`).
  var skipped: Set<EffectID> = []
  var isFinished = false

  /// Makes a store for a system and starts it on the MainActor.
  ///
  /// - Parameters:
  ///   - initial: the first state.
  ///   - reduce: the reducer under test.
  ///   - feedbacks: the feedbacks under test, with test dependencies (a `TestClock`).
  ///   - exhaustivity: `.on` (default) or `.off`.
  ///   - timeout: the real-time bound for waits that only a failing test reaches.
  ///   - clock: the `TestClock` the feedbacks sleep on, if any: its `advance` then first lets
  ///     the effects each `send` started run until they sleep or end, so a test advances
  ///     right after a send (no `expectSleepers`), and a `receive` that times out says
  ///     what sleeps on it until when.
  ///   - dependencies: overrides for this store's effects. The store's scope is the test's
  ///     (`DependencyValues.current`) in the `.test` context: keys nobody overrode answer
  ///     their `testValue` (unimplemented endpoints report to `failure`, naming themselves);
  ///     `clock`, when given, is the `continuousClock` and the `suspendingClock`.
  ///   - failure: where failures go; a Swift Testing suite calls `Issue.record`.
  public init(
    initial: State,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>],
    exhaustivity: Exhaustivity = .on,
    timeout: Duration = .seconds(2),
    clock: TestClock? = nil,
    dependencies update: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    failure: @escaping @Sendable (TestFailure) -> Void
  ) {
    var dependencies = DependencyValues.current.inTestContext(reportingTo: failure)
    if let clock {
      dependencies.continuousClock = clock
      dependencies.suspendingClock = clock
    }
    update(&dependencies)
    let tracker = TestStoreTracker<State, Event>()
    self.tracker = tracker
    self.failure = failure
    self.exhaustivity = exhaustivity
    self.timeout = timeout
    self.clock = clock
    clock?.includeFreshWork(freshWork)
    self.expected = initial
    self.location = TestFailure.Location(
      fileID: fileID, filePath: filePath, line: line, column: column)
    self.system = FeedbackSystem(
      initial: initial, name: "TestStore<\(State.self)>", reduce: reduce, feedbacks: feedbacks,
      host: MainActor.shared, monitor: PerformanceMonitor(enabled: false),
      observer: { tracker.activity($0) }, onTransition: { tracker.transition($0, $1) },
      dependencies: dependencies, isolation: MainActor.shared)
  }

  // Not `isolated`: an isolated deinit hides the releasing task's task-local values (where
  // Swift Testing keeps the current test), so its report would belong to no test. A
  // nonisolated deinit runs synchronously where the last reference goes away, normally the
  // end of the test's scope, and reports there.
  deinit {
    let exhaustive = exhaustivity == .on
    if !isFinished, exhaustive {
      for message in Self.leftovers(tracker.record, skipping: skipped) {
        failure(TestFailure(message: message, location: location))
      }
    }
    system.cancel()
  }

  /// The actual current state.
  public var state: State { system.state }

  /// Every effect step the system reported so far, in order.
  public var effectLog: [EffectActivity] { tracker.record.activities }

  /// The effects launched when the initial state was shown to the feedbacks.
  public var effectsAtStart: EffectChanges { tracker.record.atStart }

  /// Stops tracking the effects running now: `finish` neither waits for them nor reports
  /// them, and cancels them.
  public func skipInFlightEffects() {
    skipped.formUnion(tracker.record.running.keys)
  }

  /// Drops the events fed back so far without asserting them, and takes the actual state as
  /// the expected one.
  public func skipReceivedEvents() {
    tracker.update { $0.pending.removeAll() }
    expected = system.state
  }

  func fail(_ message: String, _ location: TestFailure.Location) {
    failure(TestFailure(message: message, location: location))
  }
}
