import Foundation

/// One message on a realtime connection.
///
/// - Complexity: O(1) to copy.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the payload.
public enum RealtimeMessage: Sendable, Equatable {
  /// A text frame.
  case text(String)
  /// A binary frame.
  case data(Data)
}

/// Opens realtime sockets: ``SimulatedRealtimeTransport`` (scripted, virtual time) or
/// ``URLSessionRealtimeTransport`` (WebSocket, where the platform supports it).
///
/// - Complexity: one dial per call.
/// - Note: Isolation: implementations are `Sendable`; `connect` must return promptly when
///   its task is cancelled.
/// - Note: Allocations: one socket per successful dial.
public protocol RealtimeTransport: Sendable {
  /// Opens one socket.
  ///
  /// - Throws: anything; the connection reports it as ``ConnectionError/refused(_:)``.
  func connect() async throws -> any RealtimeSocket
}

/// One open realtime socket.
///
/// - Complexity: O(1) per call besides the frame's size.
/// - Note: Isolation: implementations are `Sendable`; ``RealtimeConnection`` calls
///   `receive` from one task at a time, `send` and `sendPing` from others.
/// - Note: Allocations: one message per frame received.
public protocol RealtimeSocket: Sendable {
  /// Sends one message.
  func send(_ message: RealtimeMessage) async throws
  /// Waits for the next message; throws when the socket drops or is closed.
  func receive() async throws -> RealtimeMessage
  /// Sends a ping; `onPong` is called once, with `nil` when the pong arrives or with the
  /// error that prevented it. It may be called before `sendPing` returns.
  func sendPing(onPong: @escaping @Sendable ((any Error)?) -> Void)
  /// Closes the socket; a pending `receive` throws.
  func close()
  /// Closes the socket with a close code and reason (WebSocket: RFC 6455 §7.4, 1000 or
  /// 3000–4999 for an application's own codes); a pending `receive` throws.
  func close(code: UInt16, reason: String)
  /// The subprotocol the server chose among those offered, nil for none.
  var subprotocol: String? { get }
  /// How the socket ended, once it has (waits for the end of the closing handshake, at most
  /// the transport's close timeout after a `close`); nil if this transport cannot tell.
  func closure() async -> RealtimeClosure?
  /// The server's pings and pongs, when the transport was asked to report them; a stream that
  /// finishes at once otherwise. Finishes when the socket ends.
  var controlFrames: AsyncStream<RealtimeControlFrame> { get }
  /// An executor on the socket's own thread, for `withTaskExecutorPreference`: a task that
  /// prefers it is resumed where the socket reads, without a thread wake-up per message; nil
  /// when the socket has none (the default; ``POSIXWebSocketTransport`` provides one when
  /// ``WebSocketConfiguration/providesTaskExecutor`` is set).
  var taskExecutor: (any TaskExecutor)? { get }
}
