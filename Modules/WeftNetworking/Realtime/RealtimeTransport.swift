import Foundation

/// One message on a realtime connection.
///
/// - Note: Isolation: a value type; any isolation.
public enum RealtimeMessage: Sendable, Equatable {
  /// A text frame.
  case text(String)
  /// A binary frame.
  case data(Data)
}

/// Opens realtime sockets: ``SimulatedRealtimeTransport`` (scripted, virtual time) or
/// ``URLSessionRealtimeTransport`` (WebSocket, where the platform supports it).
///
/// - Note: Isolation: implementations are `Sendable`; `connect` must return promptly when
///   its task is cancelled.
public protocol RealtimeTransport: Sendable {
  /// Opens one socket.
  ///
  /// - Throws: anything; the connection reports it as ``ConnectionError/refused(_:)``.
  func connect() async throws -> any RealtimeSocket
}

/// One open realtime socket.
///
/// - Note: Isolation: implementations are `Sendable`; ``RealtimeConnection`` calls
///   `receive` from one task at a time, `send` and `sendPing` from others.
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
}
