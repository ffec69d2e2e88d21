/// How a realtime socket ended, as a value to read besides the error `receive` throws.
///
/// ```swift
/// socket.close(code: 4000, reason: "logging out")
/// let ending = await socket.closure()   // code 4000 from the server's echo, wasClean true
/// ```
///
/// - Complexity: O(1) to copy.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the strings it carries.
public struct RealtimeClosure: Sendable, Equatable, CustomStringConvertible {
  /// The code of the server's close frame; nil when none arrived (the connection dropped:
  /// what browsers report as 1006) or when it carried no code (1005).
  public var code: UInt16?
  /// The reason in the server's close frame ("" for none).
  public var reason: String
  /// The code of the close frame the client sent (1000 for `close()`, the chosen code for
  /// `close(code:reason:)`, 1002/1007/1009 when the client failed the connection), nil for
  /// none.
  public var sentCode: UInt16?
  /// Whether the closing handshake completed: a close frame went each way.
  public var wasClean: Bool
  /// What `receive` and `send` throw now.
  public var error: WebSocketError

  /// Makes a closure value.
  public init(
    code: UInt16?, reason: String, sentCode: UInt16?, wasClean: Bool, error: WebSocketError
  ) {
    self.code = code
    self.reason = reason
    self.sentCode = sentCode
    self.wasClean = wasClean
    self.error = error
  }

  public var description: String {
    let received = code.map { "server sent \($0)\(reason.isEmpty ? "" : " \"\(reason)\"")" }
    let sent = sentCode.map { "client sent \($0)" }
    let frames = [sent, received].compactMap { $0 }.joined(separator: ", ")
    return
      "\(wasClean ? "clean" : "not clean") close (\(frames.isEmpty ? "no close frame" : frames)): \(error)"
  }
}

/// A control frame from the server, observable when asked for
/// (``WebSocketConfiguration/observesControlFrames``): pings are answered by the transport
/// either way.
///
/// - Complexity: O(1) to copy.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the payload (at most 125 bytes).
public enum RealtimeControlFrame: Sendable, Equatable {
  /// A ping with its application data (the transport has answered it).
  case ping([UInt8])
  /// A pong with its application data (an answer to a ping, or unsolicited).
  case pong([UInt8])
}
