import WeftFeedback

extension TestStore {
  /// Sends `event` and asserts the state it produces: `update` applies the expected change
  /// to the state asserted so far, and the result must equal the actual state.
  ///
  /// ```swift
  /// store.send(.usernameChanged("ada")) { $0.username = "ada" }
  /// ```
  ///
  /// - Parameters:
  ///   - event: the event to reduce (the system runs on the MainActor: it is reduced, and
  ///     its feedback rules have run, when `send` returns).
  ///   - effects: if given, the effects this event must launch and cancel, exactly.
  ///   - update: the expected change; omit it when the state must not change.
  /// - Complexity: O(1) plus reducing; rendering only on failure.
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: a transition record.
  public func send(
    _ event: Event, effects: EffectChanges? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column, _ update: ((inout State) -> Void)? = nil
  ) {
    let location = TestFailure.Location(
      fileID: fileID, filePath: filePath, line: line, column: column)
    let step = "send(\(Rendering.inline(event)))"
    let pending = tracker.record.pending
    if !pending.isEmpty {
      if exhaustivity == .on {
        fail(Messages.sentWhilePending(step, pending.map(\.event)), location)
      }
      skipReceivedEvents()
    }
    tracker.update { record in
      record.sending = step
      record.sent = nil
    }
    system.withFreshWork(freshWork) { system.send(event) }
    let sent = tracker.update { record -> TestStoreTracker<State, Event>.Transition? in
      defer {
        record.sending = nil
        record.sent = nil
      }
      return record.sent
    }
    guard let sent else {
      fail(Messages.notReduced(step), location)
      return
    }
    check(sent, step: step, effects: effects, update: update, location)
  }

  /// Waits for the next event an effect fed back, asserts it is `expected`, and asserts the
  /// state it produced like `send` does.
  ///
  /// ```swift
  /// await clock.advance(by: .seconds(1))
  /// await store.receive(.loaded(42)) { $0.value = 42 }
  /// ```
  ///
  /// With `exhaustivity: .off`, events before the first match are skipped.
  ///
  /// - Complexity: waits on a signal (an event or an effect finishing); never sleeps.
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: a waiter, and a real-time timer task while it waits.
  public func receive(
    _ expected: Event, effects: EffectChanges? = nil, timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column, _ update: ((inout State) -> Void)? = nil
  ) async where Event: Equatable {
    await receive(
      Rendering.inline(expected), matching: { $0 == expected }, expectedEvent: expected,
      effects: effects, timeout: timeout,
      TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column),
      update)
  }

  /// Form of `receive(_:effects:timeout:_:)` for events that are not `Equatable`: the next
  /// event must satisfy `matches`.
  ///
  /// ```swift
  /// await store.receive(where: { if case .failed = $0 { true } else { false } }) { ... }
  /// ```
  public func receive(
    where matches: @escaping (Event) -> Bool, effects: EffectChanges? = nil,
    timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column, _ update: ((inout State) -> Void)? = nil
  ) async {
    await receive(
      "where:", matching: matches, expectedEvent: nil, effects: effects, timeout: timeout,
      TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column),
      update)
  }

  private func receive(
    _ description: String, matching matches: (Event) -> Bool, expectedEvent: Event?,
    effects: EffectChanges?, timeout: Duration?, _ location: TestFailure.Location,
    _ update: ((inout State) -> Void)?
  ) async {
    let step = "receive(\(description))"
    let timeout = timeout ?? self.timeout
    while true {
      guard let next = await nextReceived(step, timeout: timeout, location) else { return }
      if matches(next.event) {
        check(next, step: step, effects: effects, update: update, location)
        return
      }
      if exhaustivity == .on {
        fail(
          Messages.unexpectedEvent(step, expected: expectedEvent, received: next.event), location)
        expected = next.state
        return
      }
      expected = next.state  // non-exhaustive: skip it and look at the next one
    }
  }

  /// Takes the oldest unasserted fed-back event, waiting for one if effects could still send
  /// one. Reports a failure and returns nil if none comes.
  private func nextReceived(
    _ step: String, timeout: Duration, _ location: TestFailure.Location
  ) async -> TestStoreTracker<State, Event>.Transition? {
    let system = self.system
    let arrived = await waitFor(timeout: timeout) { record in
      !record.pending.isEmpty || (record.running.isEmpty && !system.hasQueuedEvents)
    }
    let next = tracker.update { record -> TestStoreTracker<State, Event>.Transition? in
      record.pending.isEmpty ? nil : record.pending.removeFirst()
    }
    if let next { return next }
    let running = tracker.record.running.values.sorted { $0.activity.effect < $1.activity.effect }
    fail(
      arrived
        ? Messages.nothingCanArrive(step)
        : Messages.nothingArrived(
          step, timeout: timeout, running: running.map(\.summary), clock: clock),
      location)
    return nil
  }

  /// Compares a transition with the expectation: state, then effects.
  func check(
    _ transition: TestStoreTracker<State, Event>.Transition, step: String,
    effects: EffectChanges?, update: ((inout State) -> Void)?, _ location: TestFailure.Location
  ) {
    let actual = transition.state
    switch exhaustivity {
    case .on:
      var wanted = expected
      update?(&wanted)
      if wanted != actual {
        fail(
          Messages.stateMismatch(step, expected: wanted, actual: actual, hasUpdate: update != nil),
          location)
      } else if update != nil && wanted == expected {
        fail(Messages.noChange(step), location)
      }
    case .off:
      var wanted = actual
      update?(&wanted)
      if wanted != actual {
        fail(
          Messages.stateMismatch(step, expected: wanted, actual: actual, hasUpdate: true),
          location)
      }
    }
    expected = actual
    if let effects, effects != transition.changes {
      fail(Messages.effectsMismatch(step, expected: effects, actual: transition.changes), location)
    }
  }
}

extension TestStore {
  /// Waits until `condition` holds on the MainActor, re-checking after each wake-up (a wake
  /// may come before the reduction that woke it has run its feedback rules). Returns false
  /// if `timeout` of real time passed first.
  func waitFor(
    timeout: Duration,
    _ condition: @escaping @Sendable (TestStoreTracker<State, Event>.Record) -> Bool
  ) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition(tracker.record) {
      let remaining = clock.now.duration(to: deadline)
      guard remaining > .zero else { return false }
      _ = await tracker.wait(until: condition, timeout: remaining)
    }
    return true
  }
}
