/// The realtime connection's decisions as a pure value: feed it events, carry out the action
/// it returns. No sockets, no clock, so every state × event is tested synchronously.
///
/// ```swift
/// var machine = ConnectionStateMachine(policy: ReconnectPolicy(), random: SeededRandom(seed: 1))
/// machine.handle(.connectRequested)        // .open          state: .connecting
/// machine.handle(.opened)                  // .startSession  state: .connected
/// machine.handle(.dropped(.dropped("EOF"))) // .scheduleReconnect(after: …)  .reconnecting(1)
/// ```
///
/// Events that make no sense in the current state (a late `opened` after `disconnect`) are
/// ignored and return `.none`; the owner then closes whatever socket the event carried.
///
/// - Complexity: O(1) per event.
/// - Note: Isolation: a value type owned by one actor.
/// - Note: Allocations: none.
public struct ConnectionStateMachine: Sendable {
  /// Something that happened.
  public enum Event: Sendable, Equatable {
    /// The user asked to connect.
    case connectRequested
    /// A dial succeeded.
    case opened
    /// A dial failed.
    case openFailed(ConnectionError)
    /// The open connection broke.
    case dropped(ConnectionError)
    /// A ping went unanswered for `after`.
    case heartbeatTimedOut(after: Duration)
    /// The wait before a reconnect attempt is over.
    case reconnectDelayElapsed
    /// The user asked to disconnect.
    case disconnectRequested
  }

  /// What the owner must do.
  public enum Action: Sendable, Equatable {
    /// Nothing.
    case none
    /// Dial the transport now; report `opened` or `openFailed`.
    case open
    /// The socket is open: start receiving and heart-beating; report `dropped` or
    /// `heartbeatTimedOut`.
    case startSession
    /// Close any socket, stop its session, wait this long, then report
    /// `reconnectDelayElapsed`.
    case scheduleReconnect(after: Duration)
    /// Close any socket, stop every task.
    case close
  }

  /// The reconnect policy.
  public let policy: ReconnectPolicy
  /// The current state.
  public private(set) var state: ConnectionState = .disconnected
  /// The most recent failure, kept through reconnects for display.
  public private(set) var lastError: ConnectionError?
  private var dialing = false
  private var random: SeededRandom

  /// Makes a disconnected machine.
  public init(policy: ReconnectPolicy, random: SeededRandom) {
    self.policy = policy
    self.random = random
  }

  /// Applies `event` and returns what to do.
  public mutating func handle(_ event: Event) -> Action {
    switch (state, event) {
    case (.disconnected, .connectRequested), (.failed, .connectRequested):
      state = .connecting
      lastError = nil
      return .open
    case (.connecting, .opened):
      state = .connected
      return .startSession
    case (.reconnecting, .opened) where dialing:
      state = .connected
      dialing = false
      return .startSession
    case (.connecting, .openFailed(let error)):
      return reconnect(attempt: 1, after: error)
    case (.reconnecting(let attempt), .openFailed(let error)) where dialing:
      guard attempt < policy.maxAttempts else {
        return giveUp(attempts: attempt, last: error)
      }
      return reconnect(attempt: attempt + 1, after: error)
    case (.connected, .dropped(let error)):
      return reconnect(attempt: 1, after: error)
    case (.connected, .heartbeatTimedOut(let after)):
      return reconnect(attempt: 1, after: .heartbeatTimedOut(after: after))
    case (.reconnecting, .reconnectDelayElapsed) where !dialing:
      dialing = true
      return .open
    case (.disconnected, .disconnectRequested):
      return .none
    case (_, .disconnectRequested):
      state = .disconnected
      dialing = false
      return .close
    default:
      return .none
    }
  }

  private mutating func reconnect(attempt: Int, after error: ConnectionError) -> Action {
    lastError = error
    dialing = false
    guard attempt <= policy.maxAttempts else { return giveUp(attempts: 0, last: error) }
    state = .reconnecting(attempt: attempt)
    return .scheduleReconnect(after: policy.delay(beforeAttempt: attempt, random: &random))
  }

  private mutating func giveUp(attempts: Int, last: ConnectionError) -> Action {
    let error = ConnectionError.gaveUp(attempts: attempts, last: last)
    lastError = error
    dialing = false
    state = .failed(error)
    return .close
  }
}
