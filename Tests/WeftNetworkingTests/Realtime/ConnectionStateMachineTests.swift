import Testing

@testable import WeftNetworking

/// The pure connection machine over every state and event, synchronously.
@Suite("ConnectionStateMachine")
struct ConnectionStateMachineTests {
  typealias Machine = ConnectionStateMachine
  static let policy = ReconnectPolicy(
    maxAttempts: 2, baseDelay: .seconds(1), multiplier: 2, maxDelay: .seconds(30), jitter: 0)
  static let refused = ConnectionError.refused("no")
  static let dropped = ConnectionError.dropped("reset")

  /// Every reachable state, as the event path that reaches it.
  static let paths: [(name: String, events: [Machine.Event])] = [
    ("disconnected", []),
    ("connecting", [.connectRequested]),
    ("connected", [.connectRequested, .opened]),
    ("reconnecting(1) waiting", [.connectRequested, .openFailed(refused)]),
    ("reconnecting(1) dialing", [.connectRequested, .openFailed(refused), .reconnectDelayElapsed]),
    (
      "failed",
      [
        .connectRequested, .openFailed(refused), .reconnectDelayElapsed, .openFailed(refused),
        .reconnectDelayElapsed, .openFailed(refused),
      ]
    ),
  ]

  static let events: [Machine.Event] = [
    .connectRequested, .opened, .openFailed(refused), .dropped(dropped),
    .heartbeatTimedOut(after: .seconds(3)), .reconnectDelayElapsed, .disconnectRequested,
  ]

  static func machine(after events: [Machine.Event]) -> Machine {
    var machine = Machine(policy: policy, random: SeededRandom(seed: 1))
    for event in events { _ = machine.handle(event) }
    return machine
  }

  /// The expected (state, action) for every state × event.
  static func expected(
    _ path: String, _ event: Machine.Event
  ) -> (ConnectionState, Machine.Action) {
    let gaveUp = ConnectionState.failed(.gaveUp(attempts: 2, last: refused))
    switch (path, event) {
    case ("disconnected", .connectRequested), ("failed", .connectRequested):
      return (.connecting, .open)
    case ("connecting", .opened), ("reconnecting(1) dialing", .opened):
      return (.connected, .startSession)
    case ("connecting", .openFailed):
      return (.reconnecting(attempt: 1), .scheduleReconnect(after: .seconds(1)))
    case ("reconnecting(1) dialing", .openFailed):
      return (.reconnecting(attempt: 2), .scheduleReconnect(after: .seconds(2)))
    case ("connected", .dropped), ("connected", .heartbeatTimedOut):
      return (.reconnecting(attempt: 1), .scheduleReconnect(after: .seconds(1)))
    case ("reconnecting(1) waiting", .reconnectDelayElapsed):
      return (.reconnecting(attempt: 1), .open)
    case ("disconnected", .disconnectRequested):
      return (.disconnected, .none)
    case (_, .disconnectRequested):
      return (.disconnected, .close)
    case ("disconnected", _): return (.disconnected, .none)
    case ("connecting", _): return (.connecting, .none)
    case ("connected", _): return (.connected, .none)
    case ("reconnecting(1) waiting", _), ("reconnecting(1) dialing", _):
      return (.reconnecting(attempt: 1), .none)
    default: return (gaveUp, .none)
    }
  }

  @Test func everyStateAndEvent() {
    for path in Self.paths {
      for event in Self.events {
        var machine = Self.machine(after: path.events)
        let action = machine.handle(event)
        let (state, expectedAction) = Self.expected(path.name, event)
        #expect(machine.state == state, "\(path.name) + \(event)")
        #expect(action == expectedAction, "\(path.name) + \(event)")
      }
    }
  }

  @Test func maxAttemptsThenFailed() {
    var machine = Machine(policy: Self.policy, random: SeededRandom(seed: 1))
    var trace: [String] = []
    func step(_ event: Machine.Event) {
      let action = machine.handle(event)
      trace.append("\(machine.state) \(action)")
    }
    step(.connectRequested)
    step(.opened)
    step(.dropped(Self.dropped))
    step(.reconnectDelayElapsed)
    step(.openFailed(Self.refused))
    step(.reconnectDelayElapsed)
    step(.openFailed(Self.refused))
    #expect(
      trace == [
        "connecting open",
        "connected startSession",
        "reconnecting(1) scheduleReconnect(after: 1.0 seconds)",
        "reconnecting(1) open",
        "reconnecting(2) scheduleReconnect(after: 2.0 seconds)",
        "reconnecting(2) open",
        "failed(\(ConnectionError.gaveUp(attempts: 2, last: Self.refused))) close",
      ])
    #expect(machine.lastError == .gaveUp(attempts: 2, last: Self.refused))
  }

  @Test func zeroAttemptsFailsOnTheFirstDrop() {
    var machine = Machine(policy: ReconnectPolicy(maxAttempts: 0), random: SeededRandom(seed: 1))
    _ = machine.handle(.connectRequested)
    _ = machine.handle(.opened)
    #expect(machine.handle(.dropped(Self.dropped)) == .close)
    #expect(machine.state == .failed(.gaveUp(attempts: 0, last: Self.dropped)))
  }

  @Test func reconnectDelaysGrowAndJitterStaysUnderTheCap() {
    let policy = ReconnectPolicy(baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: 0.5)
    var random = SeededRandom(seed: 4)
    for attempt in 1...8 {
      let cap = min(Duration.seconds(1 << (attempt - 1)), .seconds(10))
      let delay = policy.delay(beforeAttempt: attempt, random: &random)
      #expect(delay <= cap && delay >= cap / 2, "attempt \(attempt)")
    }
  }
}
