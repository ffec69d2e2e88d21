import Testing
import WeftCore

@testable import WeftNetworking

/// The connection owner against the scripted server, in virtual time. Each test reads as a
/// timeline; waits are explicit (`waitForSleepers`, the state stream), never yields.
@Suite("RealtimeConnection")
struct RealtimeConnectionTests {
  let clock = TestClock()
  let exact = ReconnectPolicy(
    maxAttempts: 5, baseDelay: .seconds(1), multiplier: 2, maxDelay: .seconds(30), jitter: 0)

  @Test func reconnectSequenceUnderScriptedDrops() async throws {
    let server = SimulatedRealtimeTransport(
      clock: clock,
      attempts: [
        .accept([
          .after(.seconds(2), .message(.text("hello"))),
          .after(.seconds(3), .drop("connection reset")),
        ]),
        .refuse("503"),
        .refuse("503"),
        .accept([.after(.seconds(1), .message(.text("back")))]),
      ])
    let connection = RealtimeConnection(
      transport: server, policy: exact, heartbeat: nil, clock: clock)
    var states = connection.states.makeAsyncIterator()
    var messages = connection.messages.makeAsyncIterator()

    await connection.connect()
    #expect(await states.next() == .connecting)
    #expect(await states.next() == .connected)
    // t=0 connected ── 2s ──▶ "hello" ── 3s ──▶ drop at t=5
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(2))
    #expect(await messages.next() == .text("hello"))
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .seconds(3))
    #expect(await states.next() == .reconnecting(attempt: 1))
    // backoff 1s ▶ refused ▶ 2s ▶ refused ▶ 4s ▶ accepted, at t = 5 + 1 + 2 + 4 = 12
    for (attempt, wait) in [(2, 1), (3, 2)] {
      await clock.waitForSleepers(count: 1)
      #expect(pendingDelay(clock) == .seconds(wait))
      await clock.run()
      #expect(await states.next() == .reconnecting(attempt: attempt))
    }
    await clock.waitForSleepers(count: 1)
    #expect(pendingDelay(clock) == .seconds(4))
    await clock.run()
    #expect(await states.next() == .connected)
    #expect(clock.now.offset == .seconds(12))
    #expect(server.dialCount == 4)
    #expect(await connection.lastError == .refused("simulated: 503"))
    await clock.waitForSleepers(count: 1)
    await clock.run()
    #expect(await messages.next() == .text("back"))
    await connection.disconnect()
    #expect(await states.next() == .disconnected)
  }

  @Test func anUnansweredPingDeclaresTheConnectionDead() async throws {
    let server = SimulatedRealtimeTransport(
      clock: clock, attempts: [.accept([.after(.zero, .stopAnsweringPings)]), .accept([])])
    let connection = RealtimeConnection(
      transport: server, policy: exact,
      heartbeat: HeartbeatPolicy(interval: .seconds(10), timeout: .seconds(3)), clock: clock)
    var states = connection.states.makeAsyncIterator()
    await connection.connect()
    #expect(await states.next() == .connecting)
    #expect(await states.next() == .connected)
    // the heartbeat: 10s ▶ ping ▶ 3s ▶ no pong ▶ dead at t=13
    await clock.waitForSleepers(count: 1)
    #expect(pendingDelay(clock) == .seconds(10))
    await clock.advance(by: .seconds(10))
    await clock.waitForSleepers(count: 1)
    #expect(pendingDelay(clock) == .seconds(3))
    #expect(server.pingCount == 1)
    await clock.advance(by: .seconds(3))
    #expect(await states.next() == .reconnecting(attempt: 1))
    #expect(await connection.lastError == .heartbeatTimedOut(after: .seconds(3)))
    await clock.waitForSleepers(count: 1)
    await clock.run()
    #expect(await states.next() == .connected)
    #expect(clock.now.offset == .seconds(14))
    await connection.disconnect()
  }

  @Test func answeredPingsKeepTheConnectionUp() async throws {
    let server = SimulatedRealtimeTransport(clock: clock, attempts: [.accept([])])
    let connection = RealtimeConnection(
      transport: server, policy: exact,
      heartbeat: HeartbeatPolicy(interval: .seconds(10), timeout: .seconds(3)), clock: clock)
    var states = connection.states.makeAsyncIterator()
    await connection.connect()
    #expect(await states.next() == .connecting)
    #expect(await states.next() == .connected)
    for ping in 1...3 {
      await clock.waitForSleepers(count: 1)
      await clock.run()  // the interval
      await clock.waitForSleepers(count: 1)
      await clock.run()  // the pong check
      #expect(server.pingCount == ping)
    }
    await clock.waitForSleepers(count: 1)  // the next interval: still alive
    #expect(await connection.state == .connected)
    #expect(server.dialCount == 1)
    await connection.disconnect()
    #expect(await states.next() == .disconnected)
  }

  @Test func maxAttemptsThenFailed() async throws {
    let server = SimulatedRealtimeTransport(clock: clock, attempts: [], fallback: .refuse("down"))
    let policy = ReconnectPolicy(maxAttempts: 3, baseDelay: .seconds(1), jitter: 0)
    let connection = RealtimeConnection(
      transport: server, policy: policy, heartbeat: nil, clock: clock)
    var states = connection.states.makeAsyncIterator()
    await connection.connect()
    #expect(await states.next() == .connecting)
    #expect(await states.next() == .reconnecting(attempt: 1))
    for attempt in 2...3 {
      await clock.waitForSleepers(count: 1)
      await clock.run()
      #expect(await states.next() == .reconnecting(attempt: attempt))
    }
    await clock.waitForSleepers(count: 1)
    await clock.run()
    let failure = ConnectionError.gaveUp(attempts: 3, last: .refused("simulated: down"))
    #expect(await states.next() == .failed(failure))
    #expect(server.dialCount == 4)  // the first dial and three reconnects
    #expect(clock.now.offset == .seconds(1 + 2 + 4))
    #expect(clock.sleeperCount == 0)
    #expect(
      failure.description
        == "gave up after 3 reconnect attempts; last: the connection could not be opened: "
        + "simulated: down — check the URL and that the server accepts realtime connections — "
        + "call connect() to start over, or raise ReconnectPolicy.maxAttempts")
    // connect() starts over from failed
    await connection.connect()
    #expect(await states.next() == .connecting)
    await connection.disconnect()
  }

  @Test func sendWorksOnlyWhileConnected() async throws {
    let server = SimulatedRealtimeTransport(clock: clock, attempts: [.accept([])])
    let connection = RealtimeConnection(
      transport: server, policy: exact, heartbeat: nil, clock: clock)
    await #expect(throws: ConnectionError.notConnected(.disconnected)) {
      try await connection.send(.text("early"))
    }
    var states = connection.states.makeAsyncIterator()
    await connection.connect()
    _ = await states.next()
    #expect(await states.next() == .connected)
    try await connection.send(.text("hi"))
    #expect(server.sentMessages == [.text("hi")])
    await connection.disconnect()
  }

  @Test func aDisconnectedConnectionIsFreed() async throws {
    weak var weakConnection: RealtimeConnection?
    do {
      let server = SimulatedRealtimeTransport(clock: clock, attempts: [.accept([])])
      let connection = RealtimeConnection(
        transport: server, policy: exact,
        heartbeat: HeartbeatPolicy(interval: .seconds(10), timeout: .seconds(3)), clock: clock)
      weakConnection = connection
      var states = connection.states.makeAsyncIterator()
      await connection.connect()
      _ = await states.next()
      #expect(await states.next() == .connected)
      await clock.waitForSleepers(count: 1)
      await connection.disconnect()
      #expect(await states.next() == .disconnected)
    }
    #expect(weakConnection == nil)
  }
}
