import WeftCore

/// A scripted realtime server in virtual time: each dial takes the next scripted
/// ``Attempt`` — refused, or accepted with a timeline of messages, drops and silences — so
/// reconnect sequences are exact and repeatable.
///
/// ```swift
/// let server = SimulatedRealtimeTransport(clock: clock, attempts: [
///   .accept([.after(.seconds(2), .message(.text("hello"))), .after(.seconds(3), .drop("reset"))]),
///   .refuse("503"),
///   .accept([]),
/// ])
/// ```
///
/// Timeline steps run on the clock, each `after` the previous one, while the connection
/// receives. A socket whose timeline is over waits (without a clock sleeper) until closed.
///
/// - Complexity: O(1) per dial, message and ping.
/// - Note: Isolation: thread-safe; state is behind one lock.
/// - Note: Allocations: one socket object per accepted dial, one log entry per sent message.
public final class SimulatedRealtimeTransport: RealtimeTransport {
  /// One scripted dial.
  public enum Attempt: Sendable, Equatable {
    /// The dial fails with this reason.
    case refuse(String)
    /// The dial succeeds; the socket then follows the timeline.
    case accept([Step])
  }

  /// One step of an accepted socket's timeline.
  public struct Step: Sendable, Equatable {
    /// Delay since the previous step (or the dial).
    public var after: Duration
    /// What happens then.
    public var event: Event

    /// A step `after` the previous one.
    public static func after(_ delay: Duration, _ event: Event) -> Step {
      Step(after: delay, event: event)
    }
  }

  /// What a timeline step does.
  public enum Event: Sendable, Equatable {
    /// The server sends a message.
    case message(RealtimeMessage)
    /// The connection drops with this reason.
    case drop(String)
    /// The server stops answering pings (from this step on).
    case stopAnsweringPings
  }

  private let clock: any Clock<Duration>
  private let state: Locked<State>

  private struct State {
    var attempts: [Attempt]
    var fallback: Attempt
    var dials = 0
    var pings = 0
    var sent: [RealtimeMessage] = []
  }

  /// Makes a server; dials past the script get `fallback`.
  public init(
    clock: any Clock<Duration>, attempts: [Attempt],
    fallback: Attempt = .refuse("no more scripted attempts")
  ) {
    self.clock = clock
    self.state = Locked(State(attempts: attempts, fallback: fallback))
  }

  /// How many times `connect` was called.
  public var dialCount: Int { state.withLock { $0.dials } }
  /// How many pings sockets received.
  public var pingCount: Int { state.withLock { $0.pings } }
  /// Messages clients sent, in order.
  public var sentMessages: [RealtimeMessage] { state.withLock { $0.sent } }

  public func connect() async throws -> any RealtimeSocket {
    let attempt = state.withLock { state -> Attempt in
      state.dials += 1
      return state.attempts.isEmpty ? state.fallback : state.attempts.removeFirst()
    }
    switch attempt {
    case .refuse(let reason):
      throw ConnectionError.refused("simulated: \(reason)")
    case .accept(let steps):
      return SimulatedSocket(server: self, clock: clock, steps: steps)
    }
  }

  fileprivate func recordPing() { state.withLock { $0.pings += 1 } }
  fileprivate func recordSent(_ message: RealtimeMessage) {
    state.withLock { $0.sent.append(message) }
  }
}

/// One accepted simulated socket.
private final class SimulatedSocket: RealtimeSocket {
  private struct State {
    var steps: [SimulatedRealtimeTransport.Step]
    var answersPings = true
    var failure: String?
  }

  private let server: SimulatedRealtimeTransport
  private let clock: any Clock<Duration>
  private let state: Locked<State>

  init(
    server: SimulatedRealtimeTransport, clock: any Clock<Duration>,
    steps: [SimulatedRealtimeTransport.Step]
  ) {
    self.server = server
    self.clock = clock
    self.state = Locked(State(steps: steps))
  }

  func send(_ message: RealtimeMessage) async throws {
    if let failure = state.withLock({ $0.failure }) { throw TransportError.connectionLost(failure) }
    server.recordSent(message)
  }

  func receive() async throws -> RealtimeMessage {
    while true {
      let next = state.withLock { state -> SimulatedRealtimeTransport.Step? in
        if state.failure != nil || state.steps.isEmpty { return nil }
        return state.steps.removeFirst()
      }
      if let failure = state.withLock({ $0.failure }) {
        throw TransportError.connectionLost(failure)
      }
      guard let next else {
        try await suspendUntilCancelled()
        continue
      }
      // No delay, no sleep: a zero-length sleep on a TestClock waits for an advance.
      if next.after > .zero { try await clock.sleep(for: next.after) }
      try Task.checkCancellation()
      switch next.event {
      case .message(let message):
        return message
      case .drop(let reason):
        state.withLock { $0.failure = reason }
        throw TransportError.connectionLost(reason)
      case .stopAnsweringPings:
        state.withLock { $0.answersPings = false }
      }
    }
  }

  func sendPing(onPong: @escaping @Sendable ((any Error)?) -> Void) {
    server.recordPing()
    let (answers, failure) = state.withLock { ($0.answersPings, $0.failure) }
    if let failure {
      onPong(TransportError.connectionLost(failure))
    } else if answers {
      onPong(nil)
    }
  }

  func close() {
    state.withLock { state in
      if state.failure == nil { state.failure = "closed" }
    }
  }
}
