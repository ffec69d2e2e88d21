/// Where a ``RealtimeConnection`` is in its life.
///
/// ```
/// disconnected ─connect─▶ connecting ─opened─▶ connected ─drop / dead heartbeat─▶ reconnecting(1)
///      ▲                      │ failed                                               │ wait, dial
///      └──── disconnect ──────┴──────────────▶ reconnecting(n) ─▶ … ─▶ failed(gaveUp) ┘
/// ```
///
/// - Complexity: O(1) to compare, except `failed`: O(depth of the error).
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: none, except the boxed error of `failed`.
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
  /// Not connected, and not trying to be.
  case disconnected
  /// Dialling for the first time since `connect()`.
  case connecting
  /// Open: messages flow, heartbeats run.
  case connected
  /// Lost or never opened; waiting for, or making, reconnect attempt `attempt` (from 1).
  case reconnecting(attempt: Int)
  /// Gave up; `connect()` starts over.
  case failed(ConnectionError)

  public var description: String {
    switch self {
    case .disconnected: "disconnected"
    case .connecting: "connecting"
    case .connected: "connected"
    case .reconnecting(let attempt): "reconnecting(\(attempt))"
    case .failed(let error): "failed(\(error))"
    }
  }
}

/// Why a realtime connection is not (or no longer) open.
///
/// - Complexity: O(1); `description` is O(message length).
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: one box per case (the enum is indirect).
public indirect enum ConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Dialling failed (refused, unsupported, handshake rejected).
  case refused(String)
  /// An open connection broke.
  case dropped(String)
  /// No pong within `after` of a ping: the connection was declared dead.
  case heartbeatTimedOut(after: Duration)
  /// The reconnect policy's attempts ran out; `last` is the final failure.
  case gaveUp(attempts: Int, last: ConnectionError)
  /// `send` was called while the connection was not open.
  case notConnected(ConnectionState)

  public var description: String {
    switch self {
    case .refused(let reason):
      "the connection could not be opened: \(reason) — check the URL and that the server "
        + "accepts realtime connections"
    case .dropped(let reason):
      "the connection dropped: \(reason)"
    case .heartbeatTimedOut(let after):
      "no pong within \(after) of a ping; the connection was declared dead — the network "
        + "or the server stalled"
    case .gaveUp(let attempts, let last):
      "gave up after \(attempts) reconnect attempts; last: \(last) — call connect() to start "
        + "over, or raise ReconnectPolicy.maxAttempts"
    case .notConnected(let state):
      "cannot send while \(state) — wait for .connected (see RealtimeConnection.states)"
    }
  }
}
